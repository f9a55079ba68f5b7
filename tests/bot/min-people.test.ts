import { describe, expect, it } from 'vitest';
import { runMinPeopleRule } from '../../core/schedules/min-people';
import { upsertChosenLanguage } from '../../db/repositories/customer-languages';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, inDays, telegramUser } from '../helpers/factories';
import {
  callbackUpdate,
  keyboardOf,
  plain,
  postUpdate,
  tgUser,
  type FakeCall,
  type FakeTelegram,
} from '../helpers/fake-telegram';
import { createStaff, deliver, linkStaff, useBotApp } from './setup';

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

useBotApp((parts) => ({ fake, t, staff } = parts));

const press = async (from: number, data: string, messageId: number) =>
  expect(
    (await postUpdate(t.app, t.config.webhookSecret, callbackUpdate(tgUser(from), data, messageId))).statusCode,
  ).toBe(200);
const lastOf = (calls: FakeCall[]) => calls[calls.length - 1];

describe('the minimum-participants card in Telegram', () => {
  it('owners and managers get the card with both buttons; the first press decides and redraws it, a later one is told who decided', async () => {
    const ownerTg = 9_300_001;
    const managerTg = 9_300_002;
    const hostTg = 9_300_003;
    await linkStaff(t, staff, ownerTg);
    const manager = await createStaff(t, 'manager-card@example.com');
    await linkStaff(t, manager, managerTg);
    const hostRes = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/',
      headers: staff,
      payload: { email: 'host-card@example.com', password: 'password-123', is_active: true, role: 'host' },
    });
    await linkStaff(t, await t.auth('host-card@example.com', 'password-123'), hostTg);
    expect(hostRes.json().role).toBe('host');
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: { min_people_action: 'ask', min_people_grace_hours: 12, min_people_default: 'cancel' },
    });
    const w = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/workshops/',
        headers: staff,
        payload: { title: 'Хинкали', price: 3000, min_people: 3 },
      })
    ).json();
    const a = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/address/',
        headers: staff,
        payload: { title: 'Студия', map_link: 'https://maps.example/1' },
      })
    ).json();
    const s = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/schedule/',
        headers: staff,
        payload: { date: inDays(10), capacity: 8, workshop_id: w.id, address_id: a.id },
      })
    ).json();
    const [emma, ivan] = [telegramUser(), telegramUser()];
    await upsertChosenLanguage(t.database.db, emma.id, 'en');
    await book(t.app, emma, bookingPayload(s.id, { name: 'Emma' }));
    await book(t.app, ivan, bookingPayload(s.id, { name: 'Иван' }));
    await deliver(t);
    fake.reset();

    await runMinPeopleRule(t.database, new Date(Date.parse(s.date) - 47 * 3_600_000));
    await deliver(t);
    const card = fake.ok('sendMessage', ownerTg).find((c) => String(c.params.text).includes('Набралось'))!;
    expect(card.params.parse_mode).toBe('HTML');
    expect(plain(card.params.text)).toContain('Набралось 2 из 3: отменить или провести?');
    expect(plain(card.params.text)).toContain('«Хинкали»');
    expect(plain(card.params.text)).toMatch(/Если никто не ответит до .+, мастер-класс будет отменён автоматически/);
    expect(keyboardOf(card)).toEqual([
      [
        { text: 'Отменить', callback_data: `minp:cancel:${s.id}` },
        { text: 'Провести', callback_data: `minp:run:${s.id}` },
      ],
    ]);
    expect(fake.ok('sendMessage', managerTg).some((c) => String(c.params.text).includes('Набралось'))).toBe(true);
    expect(fake.ok('sendMessage', hostTg)).toHaveLength(0);

    // A host may not decide (a forwarded card, an old one): told so, nothing changes.
    await press(hostTg, `minp:cancel:${s.id}`, 5);
    expect(lastOf(fake.ok('answerCallbackQuery')).params).toMatchObject({ show_alert: true });
    expect(String(lastOf(fake.ok('answerCallbackQuery')).params.text)).toContain('владелец и менеджеры');

    // The manager cancels: answered, the card says who decided and loses its buttons.
    await press(managerTg, `minp:cancel:${s.id}`, 70);
    expect(lastOf(fake.ok('answerCallbackQuery')).params.text).toBe(
      'Мастер-класс отменён, участники получат сообщение',
    );
    const edit = lastOf(fake.ok('editMessageText'));
    expect(edit.params).toMatchObject({ chat_id: managerTg, message_id: 70 });
    expect(plain(edit.params.text)).toContain('🚫 Решено: отменить — manager-card@example.com');
    expect(keyboardOf(edit)).toEqual([]);
    const row = await t.database.db
      .selectFrom('schedules')
      .selectAll()
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.cancelled_at).not.toBeNull();

    // Customers are told in their language with other dates; staff get one alert for the session.
    await deliver(t);
    const toEmma = lastOf(fake.ok('sendMessage', emma.id));
    expect(plain(toEmma.params.text)).toContain('Reason: not enough people signed up for it to take place.');
    expect(keyboardOf(toEmma)).toEqual([
      [{ text: 'Other dates', web_app: { url: `https://studio.example/apply?workshop=${w.id}` } }],
    ]);
    expect(plain(lastOf(fake.ok('sendMessage', ivan.id)).params.text)).toContain(
      'Причина: не набралось минимальное число участников.',
    );
    const alerts = fake
      .ok('sendMessage', ownerTg)
      .filter((c) => String(c.params.text).includes('Мастер-класс отменён'));
    expect(alerts).toHaveLength(1);
    expect(plain(alerts[0].params.text)).toContain(
      'Отменил(а): manager-card@example.com (не набрался минимум участников)',
    );
    expect(fake.ok('sendMessage', ownerTg).filter((c) => String(c.params.text).includes('Отмена записи'))).toHaveLength(
      0,
    );

    // The owner presses «Провести» on their copy later: told it was decided and by whom; nothing changes.
    await press(ownerTg, `minp:run:${s.id}`, 71);
    expect(lastOf(fake.ok('answerCallbackQuery')).params).toMatchObject({
      text: 'Уже решено: manager-card@example.com',
      show_alert: true,
    });
    expect(plain(lastOf(fake.ok('editMessageText')).params.text)).toContain(
      'Решено: отменить — manager-card@example.com',
    );
    expect(fake.ok('sendMessage', emma.id)).toHaveLength(1);

    // A forged id is answered without a lookup.
    const answered = fake.ok('answerCallbackQuery').length;
    await press(ownerTg, 'minp:cancel:0', 72);
    expect(fake.ok('answerCallbackQuery')).toHaveLength(answered + 1);
  });
});
