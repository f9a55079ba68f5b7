import { afterAll, beforeAll, beforeEach } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram';
import { consumeLinkToken, createLinkToken } from '../../core/staff/telegram-link';

/** Web-app buttons need https: the bot tests run with this public URL. */
export const PUBLIC_URL = 'https://studio.example';
/** A fixed future session: 11:00 UTC is "5 декабря 2030 12:00" in Europe/Belgrade (CET). */
export const SESSION_DATE = '2030-12-05T11:00:00.000Z';
export const SESSION_DATE_TEXT = '5 декабря 2030 12:00';

export const quietLog = { info() {}, warn() {}, error() {}, debug() {} };

/** The whole server with its bot talking to the fake Bot API. */
export function botTestApp(
  fake: FakeTelegram,
  opts: { env?: Record<string, string>; databaseUrl?: string } = {},
): Promise<TestApp> {
  return buildTestApp({ env: { ...fake.env, PUBLIC_URL, ...opts.env }, databaseUrl: opts.databaseUrl });
}

/** A staff member (active), logged in. */
export async function createStaff(t: TestApp, email: string): Promise<{ authorization: string; id: number }> {
  const admin = await t.auth();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/users/',
    headers: admin,
    payload: { email, password: 'password-123', is_active: true },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return { ...(await t.auth(email, 'password-123')), id: res.json().id };
}

/**
 * Connects the staff account to a Telegram chat as the one-time link does (the token consumed as the
 * bot consumes it, without the bot's reply), optionally with alert settings; null unlinks it as the
 * profile toggle does.
 */
export async function linkStaff(
  t: TestApp,
  headers: { authorization: string },
  telegramId: number | null,
  settings?: { userApply: boolean; userCancel: boolean; scheduled1d: boolean },
) {
  if (telegramId === null) {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers,
      payload: { telegram_id: null },
    });
    if (res.statusCode !== 200) throw new Error(res.body);
  } else {
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers });
    const { token } = await createLinkToken(t.database, me.json<{ id: number }>().id);
    if (!(await consumeLinkToken(t.database, token, { id: telegramId }))) throw new Error('link token refused');
  }
  if (settings)
    await t.app.inject({ method: 'POST', url: '/api/v1/settings/', headers, payload: { notifications: settings } });
}

/** Delivers every due outbox row through the app's worker. */
export const deliver = (t: TestApp) => t.telegram!.outbox.drain();

export interface BotApp {
  fake: FakeTelegram;
  t: TestApp;
  /** The superuser, logged in. */
  staff: { authorization: string };
}

/**
 * One server with its bot on a fake Bot API for a whole test file: started before the first test and
 * closed after the last; each test starts with the outbox delivered and the fake's log empty.
 * `ready` hands the parts to the file (and may prepare more).
 */
export function useBotApp(ready: (parts: BotApp) => unknown): void {
  let parts: BotApp;
  beforeAll(async () => {
    const fake = await startFakeTelegram();
    const t = await botTestApp(fake);
    parts = { fake, t, staff: await t.auth() };
    await ready(parts);
  });
  afterAll(async () => {
    await parts.t.close();
    await parts.fake.close();
  });
  beforeEach(async () => {
    await deliver(parts.t);
    parts.fake.reset();
  });
}
