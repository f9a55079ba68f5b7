import { describe, expect, it } from 'vitest';
import { daysBetween } from '../../contract/format';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { plain, postUpdate, textUpdate, tgUser, type FakeTelegram } from '../helpers/fake-telegram';
import { createStaff, linkStaff, useBotApp } from './setup';

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

useBotApp((parts) => ({ fake, t, staff } = parts));

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

describe('a customer note in /today', () => {
  it('shows staff’s note beside the participant', async () => {
    const host = await createStaff(t, 'host-note@example.com');
    const hostTg = 9_100_021;
    await linkStaff(t, host, hostTg);
    const { schedule } = await createSession(t.app, staff, { date: inMinutes(20) });
    const vera = telegramUser('vera_note');
    await book(t.app, vera, bookingPayload(schedule.id, { name: 'Вера' }));
    // Today on the studio's clock whenever the test runs (just after midnight: starting in twenty minutes).
    if (daysBetween(inMinutes(20), Date.now(), t.config.businessTimezone) !== 0)
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/schedule/${schedule.id}`,
        headers: staff,
        payload: { date: inMinutes(-5) },
      });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/customers/${vera.id}/note`,
      headers: staff,
      payload: { note: 'Вегетарианка, <всегда> с вином' },
    });
    expect(put.statusCode, put.body).toBe(200);
    fake.reset();
    const res = await postUpdate(t.app, t.config.webhookSecret, textUpdate(tgUser(hostTg), '/today'));
    expect(res.statusCode).toBe(200);
    const msg = fake.ok('sendMessage').find((c) => String(c.params.text).includes('Вера'))!;
    expect(String(msg.params.text)).toContain('&lt;всегда&gt;');
    expect(plain(msg.params.text)).toContain('1. Вера Петрова, 1 чел. · 📝 Вегетарианка, <всегда> с вином');
  });
});
