import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

// The only reader of process.env. A bad configuration fails fast with every problem listed, one
// line each: the variable, its value (secrets masked) and what is expected.

const bool = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');

/** sqlite:<file> or a postgres:// URL with a host. */
const databaseUrl = z.string().refine((u) => {
  if (u.startsWith('sqlite:')) return u.length > 'sqlite:'.length;
  if (!/^postgres(ql)?:\/\//.test(u)) return false;
  try {
    return new URL(u).hostname !== '';
  } catch {
    return false;
  }
});

/** PLATFORM_SEND_CAP's default: messages a second of every studio bot of one instance together. */
export const DEFAULT_SEND_CAP = 600;

const Env = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('127.0.0.1'),
  // false/0, a number of proxy hops, or proxy addresses/CIDRs separated by commas. Default below: 1 hop in production, none otherwise.
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2}|[\d.:a-fA-F/]+(\s*,\s*[\d.:a-fA-F/]+)*)$/)
    .optional(),
  DATABASE_URL: databaseUrl.default('sqlite:./data/app.db'),
  SECRET_KEY: z.string().min(32).optional(),
  FIRST_SUPERUSER: z.email().default('admin@example.com'),
  FIRST_SUPERUSER_PASSWORD: z.string().min(8).optional(),
  // Default: http://localhost:${PORT}, filled in below once PORT is known.
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  BOT_TOKEN: z
    .string()
    .regex(/^\d+:[\w-]+$/)
    .optional(),
  BOT_MODE: z.enum(['webhook', 'polling']).default('webhook'),
  // From @BotFather → Payments (e.g. 284685063:TEST:…); turns Telegram invoices on.
  PAYMENT_PROVIDER_TOKEN: z
    .string()
    .regex(/^[\w:-]{1,256}$/)
    .optional(),
  WEBHOOK_SECRET: z
    .string()
    .regex(/^[\w-]{1,256}$/)
    .optional(),
  TELEGRAM_API_ROOT: z
    .url({ protocol: /^https?$/ })
    .default('https://api.telegram.org')
    .transform((u) => u.replace(/\/+$/, '')),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().optional(),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  SMTP_TLS: bool.default(false),
  EMAILS_FROM_EMAIL: z.string().default('noreply@example.com'),
  BUSINESS_NAME: z.string().default('Кулинарная студия'),
  BUSINESS_TIMEZONE: z
    .string()
    .default('Europe/Belgrade')
    .refine((tz) => {
      // The list of canonical names answers without the ~30 ms a process's first Intl.DateTimeFormat costs
      // (V8 lists every locale ICU has); other spellings (aliases, other case) are checked by trying.
      if (Intl.supportedValuesOf('timeZone').includes(tz)) return true;
      try {
        new Intl.DateTimeFormat('ru', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }),
  USERS_OPEN_REGISTRATION: bool.default(false),
  DATA_DIR: z.string().default('./data'),
  DIST_DIR: z.string().default('./dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SCHEDULER_TICK_S: z.coerce.number().int().min(1).max(3600).default(60),
  BUSINESS_QUIET_MINUTES: z.coerce.number().int().min(0).max(10_080).default(30),
  BACKUP_KEEP_DAYS: z.coerce.number().int().min(1).max(3650).default(35),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\w.~+/=-]{16,256}$/)
    .optional(),
  SHUTDOWN_DRAIN_S: z.coerce.number().min(0).max(300).default(0),
  // The PIN of the studio's L-PFR: the fiscal sender enters it when the PFR asks (else an owner does).
  FISCAL_PFR_PIN: z
    .string()
    .regex(/^\d{4,8}$/)
    .optional(),
  FISCAL_PFR_TIMEOUT_S: z.coerce.number().min(1).max(120).default(10),
  // Many studios on one deployment, each with its own bot (off: one studio, as before).
  PLATFORM: bool.default(false),
  PLATFORM_BOT_TOKEN: z
    .string()
    .regex(/^\d+:[\w-]+$/)
    .optional(),
  // More PostgreSQL servers for studios: name=postgres://…, separated by spaces; DATABASE_URL is "main".
  PLATFORM_DATABASES: z
    .string()
    .regex(/^\s*([a-z][a-z0-9_-]{0,30}=postgres(ql)?:\/\/\S+\s*)*$/)
    .optional(),
  PLATFORM_LIVE_STUDIOS: z.coerce.number().int().min(1).max(10_000).default(50),
  PLATFORM_IDLE_WAKE_S: z.coerce.number().int().min(10).max(86_400).default(300),
  PLATFORM_SEND_CAP: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_SEND_CAP),
  PLATFORM_FIRST_STUDIO: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,39}$/)
    .default('studio'),
});

export interface Config {
  env: string;
  port: number;
  host: string;
  /** Which X-Forwarded-For hops to believe for the client address (rate limits) and protocol (HSTS): Fastify's trustProxy. */
  trustProxy: boolean | number | string;
  databaseUrl: string;
  secretKey: string;
  firstSuperuser: string;
  firstSuperuserPassword: string | undefined;
  publicUrl: string;
  /** The path every page and API call of this studio is served under: '' for a single studio, `/s/<slug>` on a platform. */
  basePath?: string;
  botToken: string | undefined;
  /** Telegram payments' provider token; undefined: no invoices. */
  paymentProviderToken: string | undefined;
  botMode: 'webhook' | 'polling';
  webhookSecret: string;
  telegramApiRoot: string;
  smtp: { host?: string; port?: number; user?: string; password?: string; tls: boolean; from: string };
  businessName: string;
  businessTimezone: string;
  usersOpenRegistration: boolean;
  dataDir: string;
  distDir: string;
  logLevel: string;
  /** How often the periodic jobs (reminders, digest, …) run, in milliseconds. */
  schedulerTickMs: number;
  /** The bot answers in the studio's business chats only when staff have not written there this long. */
  businessQuietMinutes: number;
  /** `npm run backup` deletes its backups older than this: erased personal data leaves the backups too. */
  backupKeepDays: number;
  /** Bearer token of GET /metrics; none: the route does not exist. */
  metricsToken: string | undefined;
  /** On SIGTERM, how long the server keeps answering (readiness 503) before it stops accepting connections. */
  shutdownDrainMs: number;
  /** The L-PFR's PIN, entered by the fiscal sender when the PFR asks for it; undefined: an owner enters it. */
  fiscalPfrPin: string | undefined;
  /** How long the fiscal sender waits for the PFR's answer (its claims last about twice as long). */
  fiscalPfrTimeoutMs: number;
  platform: PlatformConfig;
}

/** Many studios on one deployment (PLATFORM=true); off: this deployment is one studio. */
export interface PlatformConfig {
  enabled: boolean;
  /** The platform's own bot, which onboards studio owners; none: studios are created by the platform owner only. */
  botToken: string | undefined;
  /** PostgreSQL servers studios may live on, by name; "main" is DATABASE_URL. */
  databases: Record<string, string>;
  /** Studios kept open at once by one instance (the least recently used closes first). */
  liveStudios: number;
  /** How often a studio nobody uses has its periodic jobs run. */
  idleWakeMs: number;
  /** Messages a second all studios' bots of one instance send together at most (our own server's cap). */
  sendCap: number;
  /** The slug the existing database's studio gets when a single-studio deployment becomes a platform. */
  firstStudio: string;
}

/** What each variable must look like, for the error lines. */
const EXPECTED: Partial<Record<keyof z.infer<typeof Env>, string>> = {
  PORT: 'a port number from 0 to 65535',
  TRUST_PROXY:
    'false, the number of proxies in front of the server (e.g. 1), or their addresses (e.g. 10.0.0.1,10.0.0.2)',
  DATABASE_URL: 'sqlite:<file> (e.g. sqlite:./data/app.db) or postgres://user:password@host:5432/database',
  SECRET_KEY: 'at least 32 characters (e.g. from `openssl rand -hex 32`)',
  FIRST_SUPERUSER: 'an email address',
  FIRST_SUPERUSER_PASSWORD: 'at least 8 characters',
  PUBLIC_URL: 'an http(s) URL such as https://booking.example.com',
  BOT_TOKEN: 'the token from @BotFather, like 123456:ABC-DEF…',
  BOT_MODE: 'webhook or polling',
  PAYMENT_PROVIDER_TOKEN: 'the payment provider token from @BotFather → Payments, like 284685063:TEST:…',
  WEBHOOK_SECRET: '1 to 256 letters, digits, _ or -',
  TELEGRAM_API_ROOT: 'an http(s) URL such as https://api.telegram.org',
  SMTP_PORT: 'a port number',
  SMTP_TLS: 'true or false',
  BUSINESS_TIMEZONE: 'an IANA time zone such as Europe/Belgrade',
  USERS_OPEN_REGISTRATION: 'true or false',
  LOG_LEVEL: 'one of fatal, error, warn, info, debug, trace, silent',
  SCHEDULER_TICK_S: 'a whole number of seconds from 1 to 3600',
  BUSINESS_QUIET_MINUTES: 'a whole number of minutes from 0 to 10080',
  BACKUP_KEEP_DAYS: 'a whole number of days from 1 to 3650',
  METRICS_TOKEN: '16 to 256 letters, digits or -._~+/= (e.g. from `openssl rand -hex 32`)',
  SHUTDOWN_DRAIN_S: 'a number of seconds from 0 to 300',
  FISCAL_PFR_PIN: 'the PFR PIN: 4 to 8 digits',
  FISCAL_PFR_TIMEOUT_S: 'a number of seconds from 1 to 120',
  PLATFORM: 'true or false',
  PLATFORM_BOT_TOKEN: "the platform bot's token from @BotFather, like 123456:ABC-DEF…",
  PLATFORM_DATABASES: 'name=postgres://… pairs separated by spaces (e.g. b=postgres://u:p@db2/studios)',
  PLATFORM_LIVE_STUDIOS: 'a whole number from 1 to 10000',
  PLATFORM_IDLE_WAKE_S: 'a whole number of seconds from 10 to 86400',
  PLATFORM_SEND_CAP: 'a whole number of messages a second from 1 to 100000',
  PLATFORM_FIRST_STUDIO: '2 to 40 lowercase letters, digits or -, starting with a letter or digit',
};

/** Never printed, only their length. */
const SECRETS = new Set([
  'SECRET_KEY',
  'FIRST_SUPERUSER_PASSWORD',
  'BOT_TOKEN',
  'PAYMENT_PROVIDER_TOKEN',
  'WEBHOOK_SECRET',
  'SMTP_PASSWORD',
  'METRICS_TOKEN',
  'FISCAL_PFR_PIN',
  'PLATFORM_BOT_TOKEN',
]);

/** The password of a URL (user:password@host) replaced by ****, also in strings that do not parse as URLs. */
export const maskUrl = (value: string) => value.replace(/^([a-z][\w+.-]*:\/\/[^/:@]*:)[^/]*@/i, '$1****@');

/** `NAME=value` for messages, the value masked when it is a secret. */
export function shown(name: string, value: string | undefined): string {
  if (value === undefined || value === '') return `${name} (not set)`;
  if (SECRETS.has(name)) return `${name}=**** (${value.length} characters)`;
  return `${name}=${maskUrl(value)}`;
}

/** A configuration the server cannot run with; `problems` has one line per variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the environment (and `.env` in the working directory, whose lines never override a variable
 * already set) once. Empty strings count as unset.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, opts: { dotenv?: boolean } = {}): Config {
  if (opts.dotenv !== false && source === process.env && fs.existsSync('.env')) process.loadEnvFile('.env');
  const raw = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== '')) as Record<string, string>;
  const parsed = Env.safeParse(raw);
  if (!parsed.success) {
    const problems = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      const expected = EXPECTED[name as keyof typeof EXPECTED] ?? issue.message;
      if (!problems.has(name)) problems.set(name, `${shown(name, raw[name])}: expected ${expected}`);
    }
    throw new ConfigError([...problems.values()]);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.SECRET_KEY)
    throw new ConfigError([
      `${shown('SECRET_KEY', undefined)}: required when NODE_ENV=production; expected ${EXPECTED.SECRET_KEY}`,
    ]);
  const secretKey = e.SECRET_KEY ?? persistentSecret(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    trustProxy: trustProxy(e.TRUST_PROXY, e.NODE_ENV),
    databaseUrl: e.DATABASE_URL,
    secretKey,
    firstSuperuser: e.FIRST_SUPERUSER,
    firstSuperuserPassword: e.FIRST_SUPERUSER_PASSWORD,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    botToken: e.BOT_TOKEN,
    paymentProviderToken: e.PAYMENT_PROVIDER_TOKEN,
    botMode: e.BOT_MODE,
    webhookSecret: e.WEBHOOK_SECRET ?? crypto.createHmac('sha256', secretKey).update('telegram-webhook').digest('hex'),
    telegramApiRoot: e.TELEGRAM_API_ROOT,
    smtp: {
      host: e.SMTP_HOST,
      port: e.SMTP_PORT,
      user: e.SMTP_USER,
      password: e.SMTP_PASSWORD,
      tls: e.SMTP_TLS,
      from: e.EMAILS_FROM_EMAIL,
    },
    businessName: e.BUSINESS_NAME,
    businessTimezone: e.BUSINESS_TIMEZONE,
    usersOpenRegistration: e.USERS_OPEN_REGISTRATION,
    dataDir: e.DATA_DIR,
    distDir: e.DIST_DIR,
    logLevel: e.LOG_LEVEL,
    schedulerTickMs: e.SCHEDULER_TICK_S * 1000,
    businessQuietMinutes: e.BUSINESS_QUIET_MINUTES,
    backupKeepDays: e.BACKUP_KEEP_DAYS,
    metricsToken: e.METRICS_TOKEN,
    shutdownDrainMs: Math.round(e.SHUTDOWN_DRAIN_S * 1000),
    fiscalPfrPin: e.FISCAL_PFR_PIN,
    fiscalPfrTimeoutMs: Math.round(e.FISCAL_PFR_TIMEOUT_S * 1000),
    platform: {
      enabled: e.PLATFORM,
      botToken: e.PLATFORM_BOT_TOKEN,
      databases: {
        main: e.DATABASE_URL,
        ...Object.fromEntries(
          (e.PLATFORM_DATABASES ?? '')
            .split(/\s+/)
            .filter(Boolean)
            .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
        ),
      },
      liveStudios: e.PLATFORM_LIVE_STUDIOS,
      idleWakeMs: e.PLATFORM_IDLE_WAKE_S * 1000,
      sendCap: e.PLATFORM_SEND_CAP,
      firstStudio: e.PLATFORM_FIRST_STUDIO,
    },
  };
}

/**
 * Unset: one proxy hop in production (the usual reverse proxy), none otherwise, so a client cannot
 * pick its own address with X-Forwarded-For and slip past the per-address rate limits.
 */
function trustProxy(value: string | undefined, env: string): boolean | number | string {
  if (value === undefined) return env === 'production' ? 1 : false;
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  return value.replace(/\s+/g, '');
}

/** Without SECRET_KEY (development), one is generated once and kept in the data folder,
 * so tokens survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret_key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    try {
      fs.mkdirSync(dataDir, { recursive: true });
      const key = crypto.randomBytes(32).toString('hex');
      fs.writeFileSync(file, key, { mode: 0o600 });
      return key;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? String(err);
      throw new ConfigError([
        `${shown('DATA_DIR', dataDir)}: cannot write ${path.resolve(file)} (${code}); expected a writable folder, or set SECRET_KEY`,
      ]);
    }
  }
}

/** Settings that work but are probably a mistake: warned about at start. */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.trustProxy === true)
    warnings.push(
      `${shown('TRUST_PROXY', 'true')}: every X-Forwarded-For hop is believed, so clients choose their own address and per-address rate limits do not hold; expected the number of proxies in front of the server (e.g. 1)`,
    );
  if (config.env === 'production') {
    const url = new URL(config.publicUrl);
    const local =
      ['localhost', '127.0.0.1', '[::1]', '0.0.0.0'].includes(url.hostname) || url.hostname.endsWith('.localhost');
    if (local || url.protocol !== 'https:') {
      warnings.push(
        `${shown('PUBLIC_URL', config.publicUrl)}: ${local ? 'a local address' : 'plain http'} in production; expected the public https address ` +
          '(Telegram opens the mini-app and the webhook only over https, and password-reset emails link to it)',
      );
    }
  }
  return warnings;
}
