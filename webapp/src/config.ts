import { readAppConfig, storageKey, underBase, type AppConfig } from '../../contract/app-config';

export {
  DEFAULT_APP_CONFIG as DEFAULT_CONFIG,
  readAppConfig as readConfig,
  type AppConfig,
} from '../../contract/app-config';

/** The server's runtime configuration of this page (contract/app-config.ts), read once. */
let cached: AppConfig | undefined;
export const config = (): AppConfig => (cached ??= readAppConfig());
/** A root-relative path of this studio (a page, an API file the server names) under its prefix. */
export const withBase = (path: string): string => underBase(config().basePath, path);
/** A localStorage/sessionStorage key of this studio: the plain key without a prefix, so two studios on one origin never share one. */
export const storeKey = (key: string): string => storageKey(config().basePath, key);
/** Tests only: forget the cached configuration. */
export const resetConfig = () => {
  cached = undefined;
};
