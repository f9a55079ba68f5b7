import { readAppConfig, storageKey, underBase, type AppConfig } from '../../contract/app-config';

export {
  DEFAULT_APP_CONFIG as DEFAULT_CONFIG,
  readAppConfig as readConfig,
  type AppConfig,
} from '../../contract/app-config';

/** The server's runtime configuration of this page (contract/app-config.ts). */
export const config: AppConfig = readAppConfig();

/** A root-relative path of this studio (a page opened in a new tab, a file the server names) under its prefix ('' or `/s/<slug>`). */
export const withBase = (path: string): string => underBase(config.basePath, path);
/** A localStorage key of this studio: the plain key without a prefix (so existing logins survive), else one per prefix. */
export const storeKey = (key: string): string => storageKey(config.basePath, key);
