import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import {
  callbackUpdate,
  postUpdate,
  startFakeTelegram,
  textUpdate,
  tgUser,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { texts } from '../../bot/texts';
import { botTestApp } from './setup';

// Telegram may post updates without a sender (`from`) or a chat: every handler tolerates them
// (no error, no "something went wrong" reply), and the bot goes on answering everyone else.

let fake: FakeTelegram;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const COMMANDS = ['/start', '/start link_abcdef', '/my', '/cancel', '/help', 'просто текст'];

const withoutFrom = (update: { message: Record<string, unknown> }) => {
  const { from: _, ...message } = update.message;
  return { ...update, message };
};
const withoutChat = (update: { message: Record<string, unknown> }) => {
  const { chat: _, ...message } = update.message;
  return { ...update, message };
};

describe('updates without from or chat', () => {
  it('every command and text is answered 200 by the webhook, with no error and no error reply', async () => {
    const secret = t.config.webhookSecret;
    const u = tgUser(880_001);
    for (const text of COMMANDS) {
      for (const update of [withoutFrom(textUpdate(u, text)), withoutChat(textUpdate(u, text))]) {
        const res = await postUpdate(t.app, secret, update);
        expect(res.statusCode, `${text}: ${res.body}`).toBe(200);
      }
    }
    const { from: _, ...callback } = callbackUpdate(u, 'x').callback_query;
    expect((await postUpdate(t.app, secret, { update_id: 990_001, callback_query: callback })).statusCode).toBe(200);
    expect(fake.messages(u.id).map((m) => m.params.text)).not.toContain(texts.replies.error);

    // The bot still answers a whole update.
    await postUpdate(t.app, secret, textUpdate(u, '/my'));
    expect(fake.messages(u.id).at(-1)?.params.text).toBe(texts.replies.my.empty);
  });
});
