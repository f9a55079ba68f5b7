import { readAppConfig, type AppConfig } from '../../contract/app-config';

export {
  DEFAULT_APP_CONFIG as DEFAULT_CONFIG,
  readAppConfig as readConfig,
  type AppConfig,
} from '../../contract/app-config';

/** The server's runtime configuration of this page (contract/app-config.ts). */
export const config: AppConfig = readAppConfig();
