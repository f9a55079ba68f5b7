import { navigate } from 'wouter/use-browser-location';
import { errorMessage, parseBody } from '../../../contract/http';
import { PLATFORM_API, PLATFORM_TOKEN_KEY } from '../../../contract/platform';
import { ApiError, messageOf } from '../api';

/*
 * The platform owner's calls (`/api/platform/*`): their own token under its own key (never a studio's
 * `access_token`), `{detail}` errors, and a 401 that ends the owner's session and opens the login.
 */

export const PLATFORM_BASE = '/platform';

export const getPlatformToken = (): string | null => {
  try {
    return localStorage.getItem(PLATFORM_TOKEN_KEY);
  } catch {
    return null;
  }
};
export const setPlatformToken = (token: string) => localStorage.setItem(PLATFORM_TOKEN_KEY, token);
export const isPlatformLoggedIn = () => Boolean(getPlatformToken());

type Logout = () => void;
let onLogout: Logout | null = null;
/** The platform's app registers what else to clear (its SWR entries) when the session ends. */
export function setPlatformLogoutHandler(fn: Logout | null) {
  onLogout = fn;
}

export function platformLogout() {
  try {
    localStorage.removeItem(PLATFORM_TOKEN_KEY);
  } catch {
    /* storage unavailable: nothing kept */
  }
  onLogout?.();
  navigate(`${PLATFORM_BASE}/login`, { replace: true });
}

/** A network failure, said with what to do. */
const offline = (err: unknown) =>
  new ApiError(0, `Сервер не ответил (${messageOf(err)}). Проверьте подключение и повторите.`, null);

async function fail(res: Response, opts: { public?: boolean }): Promise<never> {
  const data = parseBody(await res.text());
  if (res.status === 401 && !opts.public) platformLogout();
  throw new ApiError(res.status, errorMessage(res.status, res.statusText, data), data);
}

/** One JSON call of the platform API with the owner's token. */
export async function platformRequest<T>(
  method: string,
  path: string,
  body?: unknown,
  opts: { public?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getPlatformToken();
  if (token && !opts.public) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`${PLATFORM_API}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw offline(err);
  }
  if (!res.ok) return fail(res, opts);
  return parseBody(await res.text()) as T;
}

/** A file the platform API serves to the owner (a plain link cannot send the token): fetched, then saved. */
export async function platformDownload(path: string, fallbackName: string): Promise<string> {
  const token = getPlatformToken();
  let res: Response;
  try {
    res = await fetch(`${PLATFORM_API}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch (err) {
    throw offline(err);
  }
  if (!res.ok) return fail(res, {});
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
