import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { postUpdate, startFakeTelegram, textUpdate, tgUser, type FakeTelegram } from '../helpers/fake-telegram';
import { botTestApp } from './setup';

// Telegram sends an update again when it thinks the first try failed (a slow answer, a lost
// connection): the bot handles each update_id once. Across instances: tests/server/instances.test.ts.

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

describe('the webhook', () => {
  it('handles an update sent again, at once or later, once; a copy arriving while it runs is told to come later', async () => {
    const user = tgUser(890_001);
    const update = textUpdate(user, '/help');
    const secret = t.config.webhookSecret;
    const first = await Promise.all([postUpdate(t.app, secret, update), postUpdate(t.app, secret, update)]);
    const later = await postUpdate(t.app, secret, update);
    // The copy is answered 200 when the first had finished, else 503 (Telegram sends it again, then finds it done).
    expect(first.map((r) => r.statusCode).sort()).toSatisfy(
      (s: number[]) => s[0] === 200 && (s[1] === 200 || s[1] === 503),
    );
    expect(later.statusCode).toBe(200);
    expect(fake.messages(user.id)).toHaveLength(1);
    // Another update of the same chat is handled as usual.
    await postUpdate(t.app, secret, textUpdate(user, '/help'));
    expect(fake.messages(user.id)).toHaveLength(2);
  });
});
