/**
 * Runtime configuration the server puts into every page it serves, as
 * `<meta name="app-config" content="{…json…}">`, and both front ends read.
 * Plain TypeScript (no zod), so reading it adds nothing to a first load.
 */
export interface AppConfig {
  businessName: string;
  businessTimezone: string;
  botEnabled: boolean;
}

export const APP_CONFIG_META = 'app-config';

/** Development builds and component tests run without the server's <meta>. */
export const DEFAULT_APP_CONFIG: AppConfig = {
  businessName: 'Кулинарная студия',
  businessTimezone: 'Europe/Belgrade',
  botEnabled: false,
};

/** The <meta>'s content, with defaults for anything missing or malformed. */
export function parseAppConfig(raw: string | null | undefined): AppConfig {
  let parsed: Partial<AppConfig> = {};
  try {
    parsed = raw ? JSON.parse(raw) : {};
  } catch {
    /* defaults */
  }
  const text = (v: unknown, fallback: string) => (typeof v === 'string' && v ? v : fallback);
  return {
    businessName: text(parsed.businessName, DEFAULT_APP_CONFIG.businessName),
    businessTimezone: text(parsed.businessTimezone, DEFAULT_APP_CONFIG.businessTimezone),
    botEnabled: parsed.botEnabled === true,
  };
}

/** Reads the configuration from a page. */
export const readAppConfig = (
  doc: Document | undefined = typeof document === 'undefined' ? undefined : document,
): AppConfig => parseAppConfig(doc?.querySelector(`meta[name="${APP_CONFIG_META}"]`)?.getAttribute('content'));
