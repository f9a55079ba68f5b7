/**
 * What the customer's journey looks like in Telegram: every new bot message and edit, as the bot
 * really sent it to a fake Bot API, drawn as a chat bubble with its inline keyboard (and the venue
 * as a map pin card) and photographed: test-results/screenshots/bot-*.png. The fake records the
 * calls; the assertions here check the Bot API shapes (methods, HTML tags Telegram supports,
 * callback_data ≤ 64 bytes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  callbackUpdate,
  keyboardOf,
  postUpdate,
  startFakeTelegram,
  textUpdate,
  tgUser,
  type FakeCall,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { tma } from '../helpers/telegram';
import { botTestApp, createStaff, deliver, linkStaff } from '../bot/setup';
import { enqueueDueReminders } from '../../core/journey/reminders';
import { enqueueAfterClassThanks } from '../../core/journey/after-class';

let fake: FakeTelegram;
let t: TestApp;
let browser: Browser;
let staff: { authorization: string };

beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake);
  staff = await t.auth();
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await fake?.close();
});

/** The tags Telegram's HTML parse mode supports. */
const TELEGRAM_TAGS = /^(b|strong|i|em|u|ins|s|strike|del|span|tg-spoiler|a|tg-emoji|code|pre|blockquote)$/;

function checkCall(call: FakeCall) {
  for (const m of String(call.params.text ?? '').matchAll(/<\/?([a-z-]+)/g)) expect(m[1]).toMatch(TELEGRAM_TAGS);
  for (const row of keyboardOf(call))
    for (const b of row) {
      if (b.callback_data) expect(Buffer.byteLength(b.callback_data)).toBeLessThanOrEqual(64);
      expect(Boolean(b.callback_data) || Boolean(b.url) || Boolean(b.web_app)).toBe(true);
    }
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A chat bubble as Telegram draws a message: its HTML text, then its inline keyboard. */
function bubble(call: FakeCall): string {
  if (call.method === 'sendVenue') {
    const p = call.params as { latitude: number; longitude: number; title: string; address: string };
    return `<div class="venue"><div class="map">📍 ${p.latitude.toFixed(4)}, ${p.longitude.toFixed(4)}</div><b>${escape(p.title)}</b><div class="addr">${escape(p.address)}</div></div>`;
  }
  const text = String(call.params.text ?? '').replace(/\n/g, '<br>');
  const rows = keyboardOf(call)
    .map(
      (row) =>
        `<div class="row">${row
          .map((b) => `<div class="btn">${b.web_app ? '🔷 ' : b.url ? '↗ ' : ''}${escape(b.text)}</div>`)
          .join('')}</div>`,
    )
    .join('');
  const tag = call.method === 'editMessageText' ? '<div class="edited">изменено</div>' : '';
  return `<div class="msg">${text}${tag}</div>${rows ? `<div class="kb">${rows}</div>` : ''}`;
}

async function photograph(name: string, calls: FakeCall[]) {
  calls.forEach(checkCall);
  const page = await browser.newPage({ viewport: { width: 420, height: 300 }, deviceScaleFactor: 2 });
  await page.setContent(`<!doctype html><meta charset="utf-8"><style>
    body { margin: 0; padding: 16px; background: #a6c48a; font: 15px/1.35 -apple-system, 'Segoe UI', Roboto, sans-serif; }
    .msg, .venue { background: #fff; border-radius: 12px; padding: 8px 12px; max-width: 360px; box-shadow: 0 1px 1px #0002; }
    .msg a { color: #168acd; } .edited { color: #8a8a8a; font-size: 12px; text-align: right; }
    .kb { max-width: 384px; margin: 4px 0 12px; } .row { display: flex; gap: 4px; margin-top: 4px; }
    .btn { flex: 1; background: #5e8a4fcc; color: #fff; border-radius: 8px; padding: 8px; text-align: center; font-weight: 500; }
    .venue { margin: 8px 0 12px; } .map { height: 90px; border-radius: 8px; background: #e8efe2; display: flex; align-items: center; justify-content: center; margin-bottom: 6px; color: #3d6b2d; }
    .addr { color: #707579; } </style><body>${calls.map(bubble).join('')}</body>`);
  await page.screenshot({ path: screenshotPath(`bot-${name}`), fullPage: true });
  await page.close();
}

const press = (u: { id: number }, data: string) =>
  postUpdate(t.app, t.config.webhookSecret, callbackUpdate(tgUser(u.id), data, 42));
const say = (u: { id: number }, text: string) =>
  postUpdate(t.app, t.config.webhookSecret, textUpdate(tgUser(u.id), text));
const HOUR = 3_600_000;

describe('the journey in Telegram, as sent', () => {
  it('reminders with Приду / Не смогу, the pin, the answers, the gift link, thanks and rating, new dates, the queue', async () => {
    const admin = await createStaff(t, 'studio@example.com');
    await linkStaff(t, admin, 7770001, { userApply: true, userCancel: true, scheduled1d: false });
    const date = new Date(Date.now() + 40 * HOUR).toISOString();
    const { schedule, address, workshop } = await createSession(t.app, staff, { date, capacity: 1 });
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/address/${address.id}`,
      headers: staff,
      payload: { latitude: 44.8125, longitude: 20.4612 },
    });
    const anna = telegramUser('anna');
    const id = (await book(t.app, anna, bookingPayload(schedule.id, { people_count: 1 }))).json().record.id;
    const queued = telegramUser('ivan');
    const qid = (await book(t.app, queued, bookingPayload(schedule.id))).json().record.id;
    await deliver(t);
    fake.reset();

    await enqueueDueReminders(t.database, new Date(Date.parse(date) - 24 * HOUR));
    await enqueueDueReminders(t.database, new Date(Date.parse(date) - 3 * HOUR));
    await deliver(t);
    expect(fake.ok('sendVenue', anna.id)).toHaveLength(1);
    await photograph(
      'reminders',
      fake.calls.filter((c) => c.ok && Number(c.params.chat_id) === anna.id),
    );
    fake.reset();

    await press(anna, `rem:yes:${id}`);
    await photograph('reminder-confirmed', fake.ok('editMessageText'));
    fake.reset();
    await press(anna, `rem:no:${id}`);
    await photograph('reminder-cant-come', fake.ok('editMessageText'));
    fake.reset();
    await press(anna, `rem:gift:${id}`);
    await photograph('reminder-gift-link', fake.ok('editMessageText'));
    const link = /start=(gift_[\w-]+)/.exec(String(fake.ok('editMessageText')[0].params.text))![1];
    fake.reset();

    const friend = telegramUser('olga');
    await say(friend, `/start ${link}`);
    await photograph('gift-start', fake.messages(friend.id));
    fake.reset();
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/v1/gifts/${link.slice(5)}/accept`,
      headers: tma(friend),
      payload: { name: 'Ольга', has_allergy: true, allergy_type: 'глютен', consent: true },
    });
    expect(accepted.statusCode).toBe(200);
    await deliver(t);
    await photograph('gift-given-away', fake.messages(anna.id));
    await photograph('gift-received', fake.messages(friend.id));
    await photograph('gift-staff', fake.messages(7770001));
    fake.reset();

    await say(queued, '/my');
    await press(queued, `queue:leave:${qid}`);
    await photograph('my-leave-queue', fake.messages(queued.id));
    await press(queued, `queue:yes:${qid}`);
    await photograph('left-queue', fake.ok('editMessageText'));
    expect(fake.ok('answerCallbackQuery').length).toBe(
      fake.calls.filter((c) => c.method === 'answerCallbackQuery').length,
    );
    fake.reset();

    // After the class: the session moved into the past, the thank-you the next morning.
    const past = new Date(Date.now() - 3 * 24 * HOUR);
    past.setUTCHours(3, 0, 0, 0);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/schedule/${schedule.id}`,
      headers: staff,
      payload: { date: past.toISOString() },
    });
    await deliver(t);
    fake.reset();
    await enqueueAfterClassThanks(t.database, 'Asia/Tokyo', new Date(past.getTime() + 22 * HOUR));
    await deliver(t);
    await photograph('thanks', fake.messages(friend.id));
    fake.reset();
    await press(friend, `rate:${id}:5`);
    await photograph('thanks-rated', fake.ok('editMessageText'));
    fake.reset();

    // New dates: /start offers the workshop (no free upcoming date), then staff add one.
    const fan = telegramUser('fan');
    await say(fan, '/start');
    await photograph('start-new-dates-offer', fake.messages(fan.id));
    await press(fan, `sub:${workshop.id}`);
    fake.reset();
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/schedule/',
      headers: staff,
      payload: {
        date: new Date(Date.now() + 7 * 24 * HOUR).toISOString(),
        capacity: 8,
        workshop_id: workshop.id,
        address_id: address.id,
      },
    });
    await deliver(t);
    await photograph('new-dates', fake.messages(fan.id));
  });
});
