/** The mini-app's one way to the API: `call(endpoint, args)` with the endpoint's types from the contract. */
import { createClient } from '../../contract/endpoints/client';
import { errorMessage, parseBody } from '../../contract/http';
import { config, storeKey } from './config';
import { currentLanguage, t } from './i18n';
import { rawInitData } from './tg';

/** The API under the studio's prefix (AppConfig.basePath: '' or `/s/<slug>`), read when a request is made. */
export const apiBase = () => `${config().basePath}/api/v1`;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

function authHeader(): string | undefined {
  const initData = rawInitData();
  if (initData) return `tma ${initData}`;
  try {
    // The admin's staff token (admin/src/api.ts), of this studio only.
    const token = localStorage.getItem(storeKey('access_token'));
    if (token) return `Bearer ${token}`;
  } catch {
    /* no storage */
  }
  return undefined;
}

/** One request with the customer's credentials (Telegram init data, else a staff token); a failure throws ApiError. */
export async function request(method: string, path: string, body?: unknown): Promise<unknown> {
  // The customer's language, for the server's refusals.
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': currentLanguage() };
  const auth = authHeader();
  if (auth) headers.Authorization = auth;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`${apiBase()}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t().common.noConnection);
  }
  const data = parseBody(await res.text());
  if (!res.ok) throw new ApiError(res.status, errorMessage(res.status, res.statusText, data));
  return data;
}

/** Calls an endpoint described in contract/endpoints: `call(recordsApi.get, { params: { id } })`. */
export const call = createClient(({ method, url, body }) => request(method, url, body));

export const errorText = (err: unknown) =>
  err instanceof ApiError ? err.detail : err instanceof Error ? err.message : String(err);
