import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { z } from 'zod';

// The only reader of process.env (DESIGN §3, §7). Fails fast with every problem listed.

const bool = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');

const Env = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().default('sqlite:./data/app.db'),
  SECRET_KEY: z.string().min(32, 'SECRET_KEY must be at least 32 characters').optional(),
  FIRST_SUPERUSER: z.email().default('admin@example.com'),
  FIRST_SUPERUSER_PASSWORD: z.string().min(8).optional(),
  PUBLIC_URL: z.url().default('http://localhost:8000').transform((u) => u.replace(/\/+$/, '')),
  BOT_TOKEN: z.string().regex(/^\d+:[\w-]+$/, 'BOT_TOKEN looks like 123456:ABC-DEF…').optional(),
  BOT_MODE: z.enum(['webhook', 'polling']).default('webhook'),
  WEBHOOK_SECRET: z.string().regex(/^[\w-]{1,256}$/).optional(),
  TELEGRAM_API_ROOT: z.url().default('https://api.telegram.org').transform((u) => u.replace(/\/+$/, '')),
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
      try {
        new Intl.DateTimeFormat('ru', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'BUSINESS_TIMEZONE must be an IANA zone such as Europe/Belgrade'),
  USERS_OPEN_REGISTRATION: bool.default(false),
  DATA_DIR: z.string().default('./data'),
  DIST_DIR: z.string().default('./dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  env: string;
  port: number;
  host: string;
  databaseUrl: string;
  secretKey: string;
  firstSuperuser: string;
  firstSuperuserPassword: string | undefined;
  publicUrl: string;
  botToken: string | undefined;
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
}

/** Reads the environment (and `.env`) once. Empty strings count as unset. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, opts: { dotenv?: boolean } = {}): Config {
  if (opts.dotenv !== false && source === process.env) loadDotenv({ quiet: true });
  const raw = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = Env.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.SECRET_KEY) throw new Error('Invalid configuration:\n  SECRET_KEY: required when NODE_ENV=production');
  const secretKey = e.SECRET_KEY ?? persistentSecret(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    secretKey,
    firstSuperuser: e.FIRST_SUPERUSER,
    firstSuperuserPassword: e.FIRST_SUPERUSER_PASSWORD,
    publicUrl: e.PUBLIC_URL,
    botToken: e.BOT_TOKEN,
    botMode: e.BOT_MODE,
    webhookSecret: e.WEBHOOK_SECRET ?? crypto.createHmac('sha256', secretKey).update('telegram-webhook').digest('hex'),
    telegramApiRoot: e.TELEGRAM_API_ROOT,
    smtp: { host: e.SMTP_HOST, port: e.SMTP_PORT, user: e.SMTP_USER, password: e.SMTP_PASSWORD, tls: e.SMTP_TLS, from: e.EMAILS_FROM_EMAIL },
    businessName: e.BUSINESS_NAME,
    businessTimezone: e.BUSINESS_TIMEZONE,
    usersOpenRegistration: e.USERS_OPEN_REGISTRATION,
    dataDir: e.DATA_DIR,
    distDir: e.DIST_DIR,
    logLevel: e.LOG_LEVEL,
  };
}

/** Without SECRET_KEY (development), one is generated once and kept in the data folder,
 * so tokens survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret_key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const key = crypto.randomBytes(32).toString('hex');
    fs.writeFileSync(file, key, { mode: 0o600 });
    return key;
  }
}
