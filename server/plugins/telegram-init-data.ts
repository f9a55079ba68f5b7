import crypto from 'node:crypto';

export interface TelegramUser {
  id: number;
  username?: string;
  first_name?: string;
  last_name?: string;
  /** The IETF tag of the user's Telegram app language ('en', 'sr', 'ru'…). */
  language_code?: string;
}

export const INIT_DATA_MAX_AGE_S = 24 * 60 * 60;

/**
 * Checks Telegram Mini App init data (https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
 * the HMAC-SHA256 of the sorted "key=value" lines under HMAC("WebAppData", bot token), and an
 * auth_date no older than 24 h. Returns the user, or null when anything is off.
 */
export function verifyInitData(initData: string, botToken: string, nowMs = Date.now()): TelegramUser | null {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(initData);
  } catch {
    return null;
  }
  const hash = params.get('hash');
  if (!hash || !/^[0-9a-f]{64}$/i.test(hash)) return null;
  params.delete('hash');
  const expected = sign(params, botToken);
  if (!crypto.timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(hash.toLowerCase(), 'hex'))) return null;

  const authDate = Number(params.get('auth_date'));
  const ageS = nowMs / 1000 - authDate;
  if (!Number.isFinite(authDate) || ageS > INIT_DATA_MAX_AGE_S || ageS < -300) return null;

  try {
    const user = JSON.parse(params.get('user') ?? 'null');
    if (!user || !Number.isSafeInteger(user.id) || user.id <= 0) return null;
    return {
      id: user.id,
      username: typeof user.username === 'string' ? user.username : undefined,
      first_name: typeof user.first_name === 'string' ? user.first_name : undefined,
      last_name: typeof user.last_name === 'string' ? user.last_name : undefined,
      language_code: typeof user.language_code === 'string' ? user.language_code.slice(0, 35) : undefined,
    };
  } catch {
    return null;
  }
}

function sign(params: URLSearchParams, botToken: string): string {
  const dataCheckString = [...params.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
  return crypto.createHmac('sha256', secretOf(botToken)).update(dataCheckString).digest('hex');
}

/** HMAC("WebAppData", bot token), the same for every request: computed once per token. */
const secrets = new Map<string, Buffer>();
function secretOf(botToken: string): Buffer {
  let secret = secrets.get(botToken);
  if (!secret) {
    secret = crypto.createHmac('sha256', 'WebAppData').update(botToken).digest();
    secrets.set(botToken, secret);
  }
  return secret;
}

/** Builds signed init data, as Telegram does: for tests, benchmarks and the dev mock. */
export function signInitData(user: TelegramUser, botToken: string, authDateS = Math.floor(Date.now() / 1000)): string {
  const params = new URLSearchParams({
    auth_date: String(authDateS),
    query_id: 'AAF' + user.id,
    user: JSON.stringify(user),
  });
  params.set('hash', sign(params, botToken));
  return params.toString();
}
