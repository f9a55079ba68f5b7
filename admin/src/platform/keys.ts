/** SWR keys of the platform owner's data: apart from any studio's, and cleared together on logout. */
export const PLATFORM_KEY_PREFIX = 'platform:';
export const STUDIOS_KEY = `${PLATFORM_KEY_PREFIX}/studios`;
export const OWNER_KEY = `${PLATFORM_KEY_PREFIX}/me`;
