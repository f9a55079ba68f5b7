import { navigate } from 'wouter/use-browser-location';
import { errorMessage, parseBody } from '../../contract/http';

export { errorMessage } from '../../contract/http';

/** Every call of the admin goes through here: Bearer token from localStorage, `{detail}` errors,
 * and a 401 that logs the user out. */
export const API_BASE = '/api/v1';
export const TOKEN_KEY = 'access_token';

export const getToken = (): string | null => {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
};
export const setToken = (token: string) => localStorage.setItem(TOKEN_KEY, token);
export const clearToken = () => localStorage.removeItem(TOKEN_KEY);
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
  navigate('/login', { replace: true });
}

export interface RequestOptions {
  /** form-encoded body (login) */
  form?: Record<string, string>;
  /** don't log out on 401 (login answers 400, but be safe) */
  public?: boolean;
  signal?: AbortSignal;
}

export async function request<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token && !opts.public) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(opts.form).toString();
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, { method, headers, body: payload, signal: opts.signal });
  } catch (err) {
    throw new ApiError(0, `Сеть недоступна: ${messageOf(err)}`, null);
  }
  const data = parseBody(await res.text());
  if (!res.ok) {
    if (res.status === 401 && !opts.public) logout();
    throw new ApiError(res.status, errorMessage(res.status, res.statusText, data), data);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/** SWR keys: the API path, except the current user which the spec caches as 'currentUser'. */
export const CURRENT_USER_KEY = 'currentUser';
export const keys = {
  workshops: '/workshops/',
  addresses: '/address/',
  schedule: '/schedule/',
  past: '/schedule/past',
  users: '/users/?skip=0&limit=100',
  settings: '/settings/',
} as const;

export const fetcher = <T>(key: string): Promise<T> => api.get<T>(key === CURRENT_USER_KEY ? '/users/me' : key);
