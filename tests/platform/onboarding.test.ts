import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInitData } from '../../server/plugins/telegram-init-data';
import { webhookSecretOf } from '../../platform/secrets';
import { platformRoutes } from '../../platform/main';
import { startFakeTelegram, tgUser, type FakeTelegram } from '../helpers/fake-telegram';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';
import { bookingPayload } from '../helpers/factories';

/*
 * A studio owner gets a studio in Telegram: the platform bot's request button, the managed_bot update,
 * the bot's token fetched (getManagedBotToken), the studio's bot set up (setWebhook with its own secret,
 * commands, menu button), the owner's one-time link into their admin, and then a working studio: its
 * staff create a session, its customers book through its own bot's mini-app, its bot answers them.
 */

let fake: FakeTelegram;
let p: TestPlatform;
const owner = tgUser(4242, 'olga');
const manager = { id: 990_001, username: 'studios_platform_bot', canManageBots: true };

beforeAll(async () => {
  fake = await startFakeTelegram();
  const platformToken = fake.addBot(manager).token;
  const own = platformRoutes({ info() {}, warn() {}, error() {} });
  p = await startTestPlatform({
    env: { ...fake.env, PLATFORM_BOT_TOKEN: platformToken, PUBLIC_URL: 'https://booking.example.com' },
    deps: { routes: own.routes },
  });
}, 60_000);
afterAll(async () => {
  await p?.close();
  await fake?.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${p.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('onboarding in Telegram', () => {
  it('ends with a working studio that has its own bot', async () => {
    const platformToken = p.config.platform.botToken!;
    const hook = { 'x-telegram-bot-api-secret-token': webhookSecretOf(p.config.secretKey, platformToken) };
    // A wrong secret is refused.
    expect(
      (await post('/platform/telegram/webhook', { update_id: 1 }, { 'x-telegram-bot-api-secret-token': 'x' })).status,
    ).toBe(401);
    // The owner taps «Создать бота студии» and Telegram creates @olga_cakes_bot managed by the platform bot.
    const managed = fake.registerManagedBot({
      managerToken: platformToken,
      owner,
      username: 'olga_cakes_bot',
      firstName: 'Торты Ольги',
    });
    expect((await post('/platform/telegram/webhook', managed.update(), hook)).status).toBe(200);

    expect(fake.ok('getManagedBotToken', undefined, platformToken).at(-1)?.params).toMatchObject({
      user_id: managed.me.id,
    });
    const studio = await p.store.db
      .selectFrom('studios')
      .selectAll()
      .where('owner_telegram_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(studio).toMatchObject({ slug: 'olga-cakes', name: 'Торты Ольги', status: 'active' });
    // The studio's bot: the platform's one webhook with its own secret, its commands, the menu button under its address.
    const setWebhook = fake.ok('setWebhook', undefined, managed.token).at(-1);
    expect(setWebhook?.params).toMatchObject({
      url: 'https://booking.example.com/api/v1/telegram/webhook',
      secret_token: webhookSecretOf(p.config.secretKey, managed.token),
    });
    expect(fake.ok('setMyCommands', undefined, managed.token).length).toBeGreaterThan(0);
    expect(fake.ok('setChatMenuButton', undefined, managed.token).at(-1)?.params).toMatchObject({
      menu_button: { web_app: { url: 'https://booking.example.com/s/olga-cakes/apply' } },
    });

    // The owner's message carries the one-time login link.
    const sent = fake.ok('sendMessage', owner.id, platformToken).map((c) => JSON.stringify(c.params));
    const link = sent
      .map((m) => /https:\/\/booking\.example\.com\/s\/olga-cakes\/welcome\?token=([\w%-]+)/.exec(m))
      .find(Boolean);
    expect(link).toBeTruthy();
    const login = await post('/s/olga-cakes/api/v1/login/telegram-link', { token: decodeURIComponent(link![1]) });
    expect(login.status).toBe(200);
    const staff = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
    // The link works once.
    expect(
      (await post('/s/olga-cakes/api/v1/login/telegram-link', { token: decodeURIComponent(link![1]) })).status,
    ).toBeGreaterThanOrEqual(400);

    // A first session, and a customer books it through the studio's own bot's mini-app.
    const w = await (
      await post('/s/olga-cakes/api/v1/workshops/', { title: 'Торт Наполеон', price: 3000 }, staff)
    ).json();
    const a = await (
      await post('/s/olga-cakes/api/v1/address/', { title: 'Кухня', map_link: 'https://m/1' }, staff)
    ).json();
    const s = await post(
      '/s/olga-cakes/api/v1/schedule/',
      { workshop_id: w.id, address_id: a.id, date: new Date(Date.now() + 3 * 86_400_000).toISOString(), capacity: 6 },
      staff,
    );
    expect(s.status).toBe(201);
    const customer = { id: 777_001, first_name: 'Ирина' };
    const booked = await post('/s/olga-cakes/api/v1/records/', bookingPayload((await s.json()).id), {
      authorization: `tma ${signInitData(customer, managed.token)}`,
    });
    expect(booked.status).toBe(201);

    // The customer writes /start to the studio's bot: Telegram posts it to the platform's webhook with
    // that bot's secret, and the studio's bot answers with its own token.
    const update = {
      update_id: 50_001,
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: customer.id, type: 'private', first_name: 'Ирина' },
        from: { ...customer, is_bot: false },
        text: '/start',
      },
    };
    const res = await post('/api/v1/telegram/webhook', update, {
      'x-telegram-bot-api-secret-token': webhookSecretOf(p.config.secretKey, managed.token),
    });
    expect(res.status).toBe(200);
    expect(fake.ok('sendMessage', customer.id, managed.token).length).toBe(1);
  });
});
