import { readAppConfig, type AppConfig } from '../../contract/app-config';

export {
  DEFAULT_APP_CONFIG as DEFAULT_CONFIG,
  readAppConfig as readConfig,
  type AppConfig,
} from '../../contract/app-config';

/** The server's runtime configuration of this page (contract/app-config.ts), read once. */
let cached: AppConfig | undefined;
export const config = (): AppConfig => (cached ??= readAppConfig());
/** Tests only: forget the cached configuration. */
export const resetConfig = () => {
  cached = undefined;
};
