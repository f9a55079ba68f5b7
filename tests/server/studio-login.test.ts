import { describe, expect, it } from 'vitest';
import type { StudioGateway } from '../../server/routes/deps';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';

/*
 * The owner's way in from the platform's bot (POST /login/telegram-link) and the studio's name and zone
 * (GET/PATCH /studio, POST /studio/setup-done), with an in-memory platform side (the real one:
 * tests/platform/login-links.test.ts) and without one, as a single-studio installation runs.
 */

const EXPIRED = 'Ссылка для входа устарела. Попросите новую у бота: /studios';
const FIXED =
  'В одиночной установке название и часовой пояс задаются в настройках сервера (BUSINESS_NAME, BUSINESS_TIMEZONE)';

/** The platform's side in memory: links by token (its Telegram user and expiry, used once), the profile as stored. */
function fakeGateway() {
  const links = new Map<string, { telegramId: number; firstName?: string; expiresAt: number; used: boolean }>();
  const state = { name: 'Студия из бота', timezone: 'Europe/Belgrade', updates: [] as object[] };
  const gateway: StudioGateway = {
    profile: async () => ({ name: state.name, timezone: state.timezone }),
    async updateProfile(patch) {
      state.updates.push(patch);
      Object.assign(state, patch);
    },
    async redeemLoginLink(token) {
      const link = links.get(token);
      if (!link || link.used || link.expiresAt <= Date.now()) return null;
      link.used = true;
      return { telegramId: link.telegramId, firstName: link.firstName };
    },
  };
  const add = (token: string, telegramId: number, ttlMs = 60_000, firstName?: string) =>
    links.set(token, { telegramId, firstName, expiresAt: Date.now() + ttlMs, used: false });
  return { gateway, state, add };
}

async function redeem(t: TestApp, token: string) {
  return t.app.inject({ method: 'POST', url: '/api/v1/login/telegram-link', payload: { token } });
}

async function userAs(t: TestApp, staff: { authorization: string }, email: string, role: 'manager' | 'host') {
  await t.app.inject({
    method: 'POST',
    url: '/api/v1/users/',
    headers: staff,
    payload: { email, password: 'staff-password-1', is_active: true, role },
  });
  return t.auth(email, 'staff-password-1');
}

describe('on the platform (a studio gateway)', () => {
  const fake = fakeGateway();
  let t: TestApp;
  let staff: { authorization: string };
  useTestApp(
    (parts) => {
      ({ t, staff } = parts);
    },
    { studio: fake.gateway },
  );

  it('a good link gives a token that works, for a new owner account linked to that Telegram user', async () => {
    fake.add('good-link', 7_770_001, 60_000, 'Ана');
    const res = await redeem(t, 'good-link');
    expect(res.statusCode, res.body).toBe(200);
    const token = res.json<{ access_token: string; token_type: string }>();
    expect(token.token_type).toBe('bearer');
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: 'tg7770001@telegram.local',
      full_name: 'Ана',
      role: 'owner',
      is_superuser: true,
      is_active: true,
      telegram_id: 7_770_001,
    });
    expect(me.json().capabilities).toContain('business.settings');
  });

  it('the same link twice: the second is refused, and no second account is made', async () => {
    fake.add('twice', 7_770_002);
    expect((await redeem(t, 'twice')).statusCode).toBe(200);
    const second = await redeem(t, 'twice');
    expect(second.statusCode).toBe(400);
    expect(second.json()).toEqual({ detail: EXPIRED });
    const users = await t.app.inject({ method: 'GET', url: '/api/v1/users/?limit=100', headers: staff });
    const mine = users.json<{ data: { email: string }[] }>().data.filter((u) => u.email.startsWith('tg7770002'));
    expect(mine).toHaveLength(1);
  });

  it('an expired or unknown link is refused with the same words', async () => {
    fake.add('old', 7_770_003, -1);
    for (const token of ['old', 'never-issued']) {
      const res = await redeem(t, token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: EXPIRED });
    }
  });

  it('a second link of the same Telegram user logs into the same account', async () => {
    fake.add('again-1', 7_770_004);
    fake.add('again-2', 7_770_004);
    const a = (await redeem(t, 'again-1')).json().access_token;
    const b = (await redeem(t, 'again-2')).json().access_token;
    const idOf = async (token: string) =>
      (
        await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } })
      ).json().id;
    expect(await idOf(a)).toBe(await idOf(b));
  });

  it('a staff account already linked to that Telegram user becomes the owner', async () => {
    const manager = await userAs(t, staff, 'manager-linked@example.com', 'manager');
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: manager })).json();
    // Linking is the bot's one-time link; here the owner's edit stands in for it through the database.
    await t.database.db.updateTable('users').set({ telegram_id: 7_770_005 }).where('id', '=', me.id).execute();
    fake.add('promote', 7_770_005);
    const res = await redeem(t, 'promote');
    expect(res.statusCode).toBe(200);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${res.json().access_token}` },
    });
    expect(after.json()).toMatchObject({ id: me.id, email: 'manager-linked@example.com', role: 'owner' });
  });

  it('GET /studio answers the platform’s name and zone, and setup is not done until the wizard says so', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/studio', headers: staff });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: fake.state.name, timezone: fake.state.timezone, setup_done: false });
  });

  it('PATCH /studio stores what changed (204) and GET shows it; the change is in the log', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/studio',
      headers: staff,
      payload: { name: '  Кухня на Дорчоле ', timezone: 'Europe/Moscow' },
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(fake.state.updates.at(-1)).toEqual({ name: 'Кухня на Дорчоле', timezone: 'Europe/Moscow' });
    const got = await t.app.inject({ method: 'GET', url: '/api/v1/studio', headers: staff });
    expect(got.json()).toMatchObject({ name: 'Кухня на Дорчоле', timezone: 'Europe/Moscow' });
    // The same values again change nothing at the platform.
    const count = fake.state.updates.length;
    await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/studio',
      headers: staff,
      payload: { name: 'Кухня на Дорчоле' },
    });
    expect(fake.state.updates).toHaveLength(count);
    const audit = await t.app.inject({ method: 'GET', url: '/api/v1/audit/?entity=business_settings', headers: staff });
    expect(JSON.stringify(audit.json())).toContain('Кухня на Дорчоле');
  });

  it('PATCH /studio checks the name (1–100) and the zone (IANA) in Russian', async () => {
    const bad = [
      [{ name: '   ' }, 'name: Укажите название студии'],
      [{ name: 'x'.repeat(101) }, 'name: Название студии: не больше 100 символов'],
      [{ timezone: 'Europe/Atlantis' }, 'timezone: Неизвестный часовой пояс'],
    ] as const;
    for (const [payload, detail] of bad) {
      const res = await t.app.inject({ method: 'PATCH', url: '/api/v1/studio', headers: staff, payload });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toContain(detail);
    }
  });

  it('PATCH /studio and setup-done by a manager or a host: 403; GET by a host: 403, by a manager: 200', async () => {
    const manager = await userAs(t, staff, 'manager@example.com', 'manager');
    const host = await userAs(t, staff, 'host@example.com', 'host');
    for (const who of [manager, host]) {
      const patch = await t.app.inject({
        method: 'PATCH',
        url: '/api/v1/studio',
        headers: who,
        payload: { name: 'Моя' },
      });
      expect(patch.statusCode).toBe(403);
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/studio/setup-done', headers: who })).statusCode).toBe(
        403,
      );
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/studio', headers: manager })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/studio', headers: host })).statusCode).toBe(403);
    expect(fake.state.name).not.toBe('Моя');
  });

  it('setup-done (204, twice is fine) makes GET /studio say setup_done', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/studio/setup-done', headers: staff });
      expect(res.statusCode).toBe(204);
    }
    const got = await t.app.inject({ method: 'GET', url: '/api/v1/studio', headers: staff });
    expect(got.json().setup_done).toBe(true);
  });

  it('anonymous callers get 401 on /studio', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/studio' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PATCH', url: '/api/v1/studio', payload: {} })).statusCode).toBe(401);
  });
});

describe('a single studio (no gateway)', () => {
  let t: TestApp;
  let staff: { authorization: string };
  useTestApp((parts) => {
    ({ t, staff } = parts);
  });

  it('GET /studio answers the configuration, set up already', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/studio', headers: staff });
    expect(res.json()).toEqual({ name: t.config.businessName, timezone: t.config.businessTimezone, setup_done: true });
  });

  it('PATCH /studio answers 409: the name and zone are the server’s settings', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/studio',
      headers: staff,
      payload: { name: 'Новая' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: FIXED });
  });

  it('every login link is refused', async () => {
    const res = await redeem(t, 'anything');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: EXPIRED });
  });
});
