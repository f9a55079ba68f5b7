import { navigate } from 'wouter/use-browser-location';
import { createClient } from '../../contract/endpoints/client';
import { errorMessage, parseBody } from '../../contract/http';
import { config, storeKey, withBase } from './config';

export { errorMessage } from '../../contract/http';

/** Every call of the admin goes through here: Bearer token from localStorage, `{detail}` errors,
 * and a 401 that logs the user out. The API is under the studio's prefix (AppConfig.basePath). */
export const API_BASE = `${config.basePath}/api/v1`;
/** The staff token's key, one per studio prefix ('access_token' without one): a token of one studio is
 * never sent to another's API on the same origin. */
export const TOKEN_KEY = storeKey('access_token');

export const getToken = (): string | null => {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
};
export const setToken = (token: string) => localStorage.setItem(TOKEN_KEY, token);
/** The account last read (session.ts), kept with the token, so a page knows the role without waiting. */
export const CURRENT_USER_STORE = storeKey('current_user');
/** Ends the session on this device: the token and the account kept with it. */
export const clearToken = () => {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(CURRENT_USER_STORE);
};
export const isLoggedIn = () => Boolean(getToken());

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly body: unknown,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** Whatever was thrown, as a message for a toast. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.detail;
  if (err instanceof Error) return err.message;
  return String(err);
}

type Logout = () => void;
let onLogout: Logout | null = null;
/** The app registers what else to clear (the SWR cache) when the session ends. */
export function setLogoutHandler(fn: Logout | null) {
  onLogout = fn;
}

export function logout() {
  clearToken();
  onLogout?.();
  // wouter's browser navigate knows no router base: the prefix is added here.
  navigate(withBase('/login'), { replace: true });
}

export interface RequestOptions {
  /** Send the body form-encoded (the login) instead of as JSON. */
  form?: boolean;
  /** A public endpoint: no token, and a 401 does not log out. */
  public?: boolean;
}

/** One request with the staff token; a failure throws ApiError, a 401 logs out. */
export async function request(
  method: string,
  path: string,
  body?: unknown,
  opts: RequestOptions = {},
): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token && !opts.public) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (opts.form && body !== undefined) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(body as Record<string, string>).toString();
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, { method, headers, body: payload });
  } catch (err) {
    throw new ApiError(0, `Сеть недоступна: ${messageOf(err)}`, null);
  }
  const data = parseBody(await res.text());
  if (!res.ok) {
    if (res.status === 401 && !opts.public) logout();
    throw new ApiError(res.status, errorMessage(res.status, res.statusText, data), data);
  }
  return data;
}

/** Calls an endpoint described in contract/endpoints: `call(workshopsApi.update, { params: { id }, body })`. */
export const call = createClient(({ method, url, body, form, access }) =>
  request(method, url, body, { form, public: access === 'public' }),
);

/** The SWR key of the current user (the spec's name for it), so logging in can clear it. */
export const CURRENT_USER_KEY = 'currentUser';
