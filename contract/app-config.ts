/**
 * Runtime configuration the server puts into every page it serves, as
 * `<meta name="app-config" content="{…json…}">`, and both front ends read.
 * Plain TypeScript (no zod), so reading it adds nothing to a first load.
 */
export interface AppConfig {
  businessName: string;
  businessTimezone: string;
  botEnabled: boolean;
  /**
   * The studio's path prefix when one deployment serves many studios (`/s/<slug>`: its mini-app at
   * `/s/<slug>/apply`, its API at `/s/<slug>/api/v1`); '' for a single-studio install (everything at
   * the root). The server routes without it (the platform strips it); the pages prefix their API
   * calls, routes, links and storage keys with it. Hashed assets stay at the root `/assets/`.
   */
  basePath: string;
}

export const APP_CONFIG_META = 'app-config';

/** Development builds and component tests run without the server's <meta>. */
export const DEFAULT_APP_CONFIG: AppConfig = {
  businessName: 'Кулинарная студия',
  businessTimezone: 'Europe/Belgrade',
  botEnabled: false,
  basePath: '',
};

/** A studio's path prefix: `/s/` and a slug of 2–40 lower-case letters, digits and hyphens, not starting with a hyphen. */
export const BASE_PATH_PATTERN = /^\/s\/[a-z0-9][a-z0-9-]{1,39}$/;

/** '' (no prefix) or a valid studio prefix. */
export const isBasePath = (v: unknown): v is string => v === '' || (typeof v === 'string' && BASE_PATH_PATTERN.test(v));

/**
 * A root-relative path of this studio under its prefix: `/api/v1/x` → `/s/pekarnya/api/v1/x`. Anything
 * else (a full URL, a protocol-relative `//host`, a relative path) is returned unchanged.
 */
export const underBase = (basePath: string, path: string): string =>
  path.startsWith('/') && !path.startsWith('//') ? basePath + path : path;

/**
 * A localStorage/sessionStorage key of this studio: the key itself without a prefix (the names a
 * single-studio install has always used), else the key with the prefix, so studios on one origin
 * never read each other's values (a staff token of one is never sent to another's API).
 */
export const storageKey = (basePath: string, key: string): string => (basePath ? `${key}@${basePath}` : key);

/** The <meta>'s content, with defaults for anything missing or malformed. */
export function parseAppConfig(raw: string | null | undefined): AppConfig {
  let parsed: Partial<AppConfig> = {};
  try {
    const value: unknown = raw ? JSON.parse(raw) : {};
    // `null` or a bare number is valid JSON but no configuration.
    if (value && typeof value === 'object') parsed = value as Partial<AppConfig>;
  } catch {
    /* defaults */
  }
  const text = (v: unknown, fallback: string) => (typeof v === 'string' && v ? v : fallback);
  return {
    businessName: text(parsed.businessName, DEFAULT_APP_CONFIG.businessName),
    businessTimezone: text(parsed.businessTimezone, DEFAULT_APP_CONFIG.businessTimezone),
    botEnabled: parsed.botEnabled === true,
    basePath: isBasePath(parsed.basePath) ? parsed.basePath : DEFAULT_APP_CONFIG.basePath,
  };
}

/** Reads the configuration from a page. */
export const readAppConfig = (
  doc: Document | undefined = typeof document === 'undefined' ? undefined : document,
): AppConfig => parseAppConfig(doc?.querySelector(`meta[name="${APP_CONFIG_META}"]`)?.getAttribute('content'));
