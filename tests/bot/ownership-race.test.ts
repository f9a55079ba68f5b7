import { describe, expect, it } from 'vitest';
import type { FakeTelegram } from '../helpers/fake-telegram';
import { callbackUpdate, postUpdate, tgUser } from '../helpers/fake-telegram';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';
import { getRecord } from '../../db/repositories/records';
import { useBotApp } from './setup';

// The bot's buttons run the same commands as the API: whose booking it is is decided under the
// session's lock, so the reminder's «Отменить запись?» pressed by a giver at the moment their friend
// accepts the seat never cancels the friend's booking (real concurrency; PostgreSQL in the rerun).

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };
useBotApp((parts) => ({ fake, t, staff } = parts));

describe('a giver’s button after giving the seat away', () => {
  it('«Отменить запись?» at the moment the friend accepts: one wins; the friend’s booking is never cancelled', async () => {
    const { schedule } = await createSession(t.app, staff, { capacity: 40 });
    for (let i = 0; i < 10; i++) {
      const giver = telegramUser();
      const friend = telegramUser();
      const id = (await book(t.app, giver, bookingPayload(schedule.id))).json().record.id;
      const gift = await t.app.inject({ method: 'POST', url: `/api/v1/records/${id}/gift`, headers: tma(giver) });
      const token = /start=gift_([\w-]+)$/.exec(gift.json().url)![1];
      fake.reset();
      const [pressed, accepted] = await Promise.all([
        postUpdate(t.app, t.config.webhookSecret, callbackUpdate(tgUser(giver.id), `rem:cancel:${id}`)),
        t.app.inject({
          method: 'POST',
          url: `/api/v1/gifts/${token}/accept`,
          headers: tma(friend),
          payload: { name: 'Друг', has_allergy: false, consent: true },
        }),
      ]);
      expect(pressed.statusCode).toBe(200);
      const r = (await getRecord(t.database.db, id))!;
      const answer = fake.calls.find((c) => c.method === 'answerCallbackQuery');
      // Every press is answered.
      expect(answer).toBeDefined();
      if (accepted.statusCode === 200) {
        expect(r).toMatchObject({ telegram_id: friend.id, state: 'ACTIVE' });
        // Refused before the lock (not theirs any more) or under it (handed over meanwhile).
        expect(['Эта запись недоступна.', 'Запись не найдена']).toContain(answer!.params.text);
      } else {
        expect(r).toMatchObject({ telegram_id: giver.id, state: 'CANCELLED' });
      }
    }
  });
});
