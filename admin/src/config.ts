/** Runtime configuration the server injects into every HTML page as
 * `<meta name="app-config" content='{"businessName":…,"businessTimezone":…,"botEnabled":…}'>`. */
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
      botEnabled: parsed.botEnabled === true,
    };
  } catch {
    return { ...DEFAULT_CONFIG };
  }
}

export const config: AppConfig = readConfig();
