/** Runtime configuration the server injects into every served page as
 * `<meta name="app-config" content='{"businessName":…,"businessTimezone":…,"botEnabled":…}'>`.
 * Defaults apply in development and in component tests. */
export interface AppConfig {
  businessName: string;
  businessTimezone: string;
  botEnabled: boolean;
}

export const DEFAULT_CONFIG: AppConfig = {
  businessName: 'Кулинарная студия',
  businessTimezone: 'Europe/Belgrade',
  botEnabled: false,
};

export function readConfig(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): AppConfig {
  const raw = doc?.querySelector('meta[name="app-config"]')?.getAttribute('content');
  if (!raw) return { ...DEFAULT_CONFIG };
  try {
    const parsed = JSON.parse(raw) as Partial<AppConfig>;
    return {
      businessName: typeof parsed.businessName === 'string' && parsed.businessName ? parsed.businessName : DEFAULT_CONFIG.businessName,
      businessTimezone:
        typeof parsed.businessTimezone === 'string' && parsed.businessTimezone ? parsed.businessTimezone : DEFAULT_CONFIG.businessTimezone,
      botEnabled: typeof parsed.botEnabled === 'boolean' ? parsed.botEnabled : DEFAULT_CONFIG.botEnabled,
    };
  } catch {
    return { ...DEFAULT_CONFIG };
  }
}

let cached: AppConfig | undefined;
export const config = (): AppConfig => (cached ??= readConfig());
/** Tests only: forget the cached configuration. */
export const resetConfig = () => {
  cached = undefined;
};
