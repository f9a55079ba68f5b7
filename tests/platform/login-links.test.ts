import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoginLink, loginUrl, redeemLoginLink } from '../../platform/login-links';
import { studioDescription } from '../../platform/bot-setup';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

/*
 * The owner's one-time login link over HTTP through the platform: the onboarding bot makes it
 * (createLoginLink), the studio's welcome page redeems it at /s/<slug>/api/v1/login/telegram-link, the
 * owner renames the studio (PATCH /studio), and the studio is reopened with its new name. Two clicks of
 * one link at once: exactly one gets in.
 */

let p: TestPlatform;
let fake: FakeTelegram;
let alpha: Awaited<ReturnType<TestPlatform['addStudio']>>;

const OWNER_TG = 6_660_001;

async function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${p.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const redeem = (token: string) =>
  call(`/s/${alpha.slug}/api/v1/login/telegram-link`, { method: 'POST', body: { token } });

beforeAll(async () => {
  // Each studio's app gets its gateway from platform/host.ts (studioGateway).
  fake = await startFakeTelegram();
  p = await startTestPlatform({ env: fake.env });
  alpha = await p.addStudio('alpha', 1);
  fake.addBot({ id: alpha.bot.id, username: alpha.bot.username }, alpha.bot.token);
}, 60_000);
afterAll(async () => {
  await p?.close();
  await fake?.close();
});

describe("the owner's login link", () => {
  it('is the studio’s welcome page with a one-time token', async () => {
    const token = await createLoginLink(p.store, alpha.id, OWNER_TG);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(loginUrl('https://platform.example/', alpha.slug, token)).toBe(
      `https://platform.example/s/${alpha.slug}/welcome?token=${token}`,
    );
    // Only its hash is stored.
    const rows = await p.store.db.selectFrom('login_links').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('logs the owner in over HTTP, PATCH renames the studio, and the next request sees the new name', async () => {
    const token = await createLoginLink(p.store, alpha.id, OWNER_TG);
    const login = await redeem(token);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const owner = { authorization: `Bearer ${login.body.access_token}` };
    const me = await call(`/s/${alpha.slug}/api/v1/users/me`, { headers: owner });
    expect(me.body).toMatchObject({ role: 'owner', telegram_id: OWNER_TG, email: `tg${OWNER_TG}@telegram.local` });

    const before = await call(`/s/${alpha.slug}/api/v1/studio`, { headers: owner });
    expect(before.body).toEqual({ name: 'Студия 1', timezone: 'Europe/Belgrade', setup_done: false });

    const patch = await call(`/s/${alpha.slug}/api/v1/studio`, {
      method: 'PATCH',
      headers: owner,
      body: { name: 'Кухня на Дорчоле', timezone: 'Europe/Moscow' },
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(204);
    const after = await call(`/s/${alpha.slug}/api/v1/studio`, { headers: owner });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ name: 'Кухня на Дорчоле', timezone: 'Europe/Moscow' });
    // The studio was reopened with it: its configuration (pages, bot, jobs) has the new name and zone.
    const live = p.host.live().find((c) => c.studio.slug === alpha.slug)!;
    expect([live.config.businessName, live.config.businessTimezone]).toEqual(['Кухня на Дорчоле', 'Europe/Moscow']);
    const stored = await p.store.db
      .selectFrom('studios')
      .select(['name', 'timezone'])
      .where('id', '=', alpha.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Кухня на Дорчоле', timezone: 'Europe/Moscow' });
    // The studio's bot describes itself with the new name.
    await fake.waitFor(
      (calls) =>
        calls.some(
          (c) =>
            c.token === alpha.bot.token &&
            c.method === 'setMyDescription' &&
            c.params.description === studioDescription('Кухня на Дорчоле'),
        ) && calls.some((c) => c.token === alpha.bot.token && c.method === 'setMyShortDescription'),
      5000,
    );
    // The owner's token outlives the reopening (the studio's key is the same).
    expect((await call(`/s/${alpha.slug}/api/v1/users/me`, { headers: owner })).status).toBe(200);

    // The wizard's end.
    expect((await call(`/s/${alpha.slug}/api/v1/studio/setup-done`, { method: 'POST', headers: owner })).status).toBe(
      204,
    );
    expect((await call(`/s/${alpha.slug}/api/v1/studio`, { headers: owner })).body.setup_done).toBe(true);
  });

  it('works once: the second use is refused in Russian', async () => {
    const token = await createLoginLink(p.store, alpha.id, OWNER_TG);
    expect((await redeem(token)).status).toBe(200);
    const again = await redeem(token);
    expect(again).toEqual({
      status: 400,
      body: { detail: 'Ссылка для входа устарела. Попросите новую у бота: /studios' },
    });
  });

  it('two clicks at once: exactly one gets in', async () => {
    const token = await createLoginLink(p.store, alpha.id, OWNER_TG + 1);
    const answers = await Promise.all([redeem(token), redeem(token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    // And at the store itself, ten at once.
    const other = await createLoginLink(p.store, alpha.id, OWNER_TG + 2);
    const got = await Promise.all(Array.from({ length: 10 }, () => redeemLoginLink(p.store, alpha.id, other)));
    expect(got.filter(Boolean)).toEqual([{ telegramId: OWNER_TG + 2 }]);
  });

  it('an expired link is refused', async () => {
    const token = await createLoginLink(p.store, alpha.id, OWNER_TG, -1000);
    expect((await redeem(token)).status).toBe(400);
  });

  it("works in its own studio only: another studio's page refuses it and leaves it unused", async () => {
    const beta = await p.addStudio('beta', 2);
    const token = await createLoginLink(p.store, alpha.id, OWNER_TG);
    const elsewhere = await call(`/s/${beta.slug}/api/v1/login/telegram-link`, { method: 'POST', body: { token } });
    expect(elsewhere.status).toBe(400);
    expect(await redeemLoginLink(p.store, beta.id, token)).toBeNull();
    expect((await redeem(token)).status).toBe(200);
  });
});
