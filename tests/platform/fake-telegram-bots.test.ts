import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FAKE_BOT,
  makeBotToken,
  startFakeTelegram,
  tgUser,
  type FakeBotHandle,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { TEST_BOT_TOKEN } from '../helpers/telegram';

/* The fake Bot API serving several bots, and managed bots (Bot API 9.6), as Telegram does. */

let fake: FakeTelegram;
let manager: FakeBotHandle;
const owner = tgUser(720_001, 'owner');

beforeAll(async () => {
  fake = await startFakeTelegram();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  manager = fake.addBot({ id: 5_200_000_001, username: 'manager_bot', canManageBots: true });
});

const call = (token: string, method: string, params: Record<string, unknown> = {}) =>
  fetch(`${fake.url}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { result?: unknown; description?: string } }));

describe('several bots', () => {
  it('any other token is still the test bot; an added bot answers getMe as itself', async () => {
    expect((await call(TEST_BOT_TOKEN, 'getMe')).body.result).toEqual(FAKE_BOT);
    const me = (await call(manager.token, 'getMe')).body.result as typeof FAKE_BOT;
    expect([me.id, me.username, me.can_manage_bots]).toEqual([5_200_000_001, 'manager_bot', true]);
    const sent = (await call(manager.token, 'sendMessage', { chat_id: owner.id, text: 'hi' })).body.result as {
      from: { id: number };
    };
    expect(sent.from.id).toBe(5_200_000_001);
    expect(fake.ok('sendMessage', owner.id, manager.token)).toHaveLength(1);
    expect(fake.ok('sendMessage', owner.id, TEST_BOT_TOKEN)).toHaveLength(0);
  });

  it('a wrong secret for a known bot id, a revoked or rotated token: 401 Unauthorized', async () => {
    expect(await call(makeBotToken(5_200_000_001), 'getMe')).toEqual({
      status: 401,
      body: { ok: false, error_code: 401, description: 'Unauthorized' },
    });
    const old = manager.token;
    const fresh = fake.rotateToken(5_200_000_001);
    expect(manager.token).toBe(fresh);
    expect((await call(old, 'getMe')).status).toBe(401);
    expect((await call(fresh, 'getMe')).status).toBe(200);
    const made = makeBotToken(1234);
    fake.revokeToken(made);
    expect((await call(made, 'getMe')).status).toBe(401);
  });
});

describe('managed bots', () => {
  it('the manager gets the token, replaces it (the old one then answers 401); another bot may not', async () => {
    const managed = fake.registerManagedBot({ managerToken: manager.token, owner, username: 'owners_bot' });
    expect(managed.update()).toMatchObject({
      managed_bot: { user: owner, bot: { id: managed.me.id, is_bot: true, username: 'owners_bot' } },
    });
    expect(managed.createdMessage().message).toMatchObject({
      chat: { id: owner.id, type: 'private' },
      from: owner,
      managed_bot_created: { bot: { id: managed.me.id, username: 'owners_bot' } },
    });

    const got = await call(manager.token, 'getManagedBotToken', { user_id: managed.me.id });
    expect(got.body.result).toBe(managed.token);
    const first = managed.token;
    const replaced = await call(manager.token, 'replaceManagedBotToken', { user_id: managed.me.id });
    expect(replaced.body.result).toBe(managed.token);
    expect(managed.token).not.toBe(first);
    expect((await call(first, 'getMe')).status).toBe(401);
    expect((await call(managed.token, 'getMe')).status).toBe(200);

    expect(await call(TEST_BOT_TOKEN, 'getManagedBotToken', { user_id: managed.me.id })).toMatchObject({
      status: 400,
      body: { description: 'Bad Request: BOT_INVALID' },
    });
    expect(await call(manager.token, 'getManagedBotToken', {})).toMatchObject({
      status: 400,
      body: { description: 'Bad Request: USER_ID_INVALID' },
    });
  });

  it('request_managed_bot: private chats only, a 32-bit request_id unique in the message', async () => {
    const button = (id: unknown) => ({
      text: 'Создать',
      request_managed_bot: { request_id: id, suggested_username: 'x_bot' },
    });
    const send = (chatId: number, keyboard: unknown[][]) =>
      call(manager.token, 'sendMessage', { chat_id: chatId, text: 'hi', reply_markup: { keyboard } });
    expect((await send(owner.id, [[button(1)]])).status).toBe(200);
    expect((await send(-100_500, [[button(1)]])).body.description).toBe('Bad Request: BUTTON_TYPE_INVALID');
    expect((await send(owner.id, [[button(2 ** 31)]])).body.description).toBe('Bad Request: BUTTON_ID_INVALID');
    expect((await send(owner.id, [[button(1)], [button(1)]])).body.description).toBe('Bad Request: BUTTON_ID_INVALID');
    expect((await send(owner.id, [[{ ...button(1), request_contact: true }]])).status).toBe(400);
  });

  it('setMyDescription, setMyShortDescription and deleteMessage are checked as the reference states them', async () => {
    expect((await call(manager.token, 'setMyDescription', { description: 'x'.repeat(512) })).status).toBe(200);
    expect((await call(manager.token, 'setMyDescription', { description: 'x'.repeat(513) })).status).toBe(400);
    expect((await call(manager.token, 'setMyShortDescription', { short_description: 'x'.repeat(120) })).status).toBe(
      200,
    );
    expect((await call(manager.token, 'setMyShortDescription', { short_description: 'x'.repeat(121) })).status).toBe(
      400,
    );
    expect((await call(manager.token, 'deleteMessage', { chat_id: owner.id, message_id: 5 })).status).toBe(200);
    expect((await call(manager.token, 'deleteMessage', { chat_id: owner.id })).status).toBe(400);
  });
});
