import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERASED_NAME, type PersonalDataExport } from '../../contract';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import {
  callbackUpdate,
  keyboardOf,
  plain,
  postUpdate,
  startFakeTelegram,
  textUpdate,
  tgUser,
  type FakeTelegram,
  type UploadedFile,
} from '../helpers/fake-telegram';
import { consumeLinkToken, createLinkToken } from '../../core/staff/telegram-link';
import { botTestApp, createStaff, deliver, SESSION_DATE } from './setup';

let fake: FakeTelegram;
let t: TestApp;
let staff: { authorization: string };

beforeAll(async () => {
  fake = await startFakeTelegram();
  t = await botTestApp(fake);
  staff = await t.auth();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const send = async (update: unknown) => {
  const res = await postUpdate(t.app, t.config.webhookSecret, update);
  expect(res.statusCode).toBe(200);
};

describe('/mydata', () => {
  it('answers with a readable summary and the whole export as a JSON file (sendDocument, multipart)', async () => {
    const customer = telegramUser('vesna_d');
    const u = tgUser(customer.id, 'vesna_d');
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    await book(
      t.app,
      customer,
      bookingPayload(schedule.id, {
        name: 'Весна',
        last_name: 'Дубравка',
        people_count: 3,
        has_allergy: true,
        allergy_type: 'арахис <всё>',
        comment: 'Возьмём детей',
      }),
    );

    // Her answers: "Приду" on a reminder and a rating after the class.
    await t.database.db
      .updateTable('records')
      .set({ confirmed_at: new Date().toISOString(), rating: 5 })
      .where('telegram_id', '=', customer.id)
      .execute();

    // Staff's note about her is hers to read too.
    const note = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/customers/${customer.id}/note`,
      headers: staff,
      payload: { note: 'Любит острое <очень>' },
    });
    expect(note.statusCode, note.body).toBe(200);

    await send(textUpdate(u, '/mydata'));
    const text = plain(fake.messages(u.id).at(-1)!.params.text);
    expect(text).toContain('Ваши данные у нас');
    expect(text).toContain('📝 Заметка студии о вас: Любит острое <очень>');
    expect(text).toContain(`Telegram ID: ${customer.id}`);
    expect(text).toContain('1. «Паста», 5 декабря 2030 12:00: ✅ Активна');
    expect(text).toContain('Весна Дубравка · @vesna_d · 3 чел.');
    expect(text).toContain(
      'аллергия: арахис <всё> · комментарий: Возьмём детей · на напоминание ответили «Приду» · оценка: 5',
    );
    expect(text).toContain('/forget');

    const [doc] = fake.ok('sendDocument', u.id);
    expect(doc.params.caption).toBe('Ваши данные в формате JSON');
    const file = doc.params.document as UploadedFile;
    expect(file.filename).toBe('mydata.json');
    const data: PersonalDataExport = JSON.parse(file.text);
    expect(data.telegram_id).toBe(customer.id);
    expect(data.bookings).toHaveLength(1);
    expect(data.bookings[0]).toMatchObject({
      workshop: 'Паста',
      date: SESSION_DATE,
      name: 'Весна',
      last_name: 'Дубравка',
      telegram_login: 'vesna_d',
      people_count: 3,
      allergy_type: 'арахис <всё>',
      comment: 'Возьмём детей',
      state: 'ACTIVE',
      rating: 5,
    });
    expect(data.bookings[0].confirmed_at).toEqual(expect.any(String));
    expect(data.history.map((h) => h.action)).toEqual(['created']);
    expect(data.staff_note).toBe('Любит острое <очень>');
  });

  it('tells someone with no bookings that there are none, and still sends the file', async () => {
    const u = tgUser(telegramUser().id);
    await send(textUpdate(u, '/mydata'));
    expect(plain(fake.messages(u.id).at(-1)!.params.text)).toContain('Записей нет.');
    expect(plain(fake.messages(u.id).at(-1)!.params.text)).not.toContain('Заметка студии');
    expect(JSON.parse((fake.ok('sendDocument', u.id)[0].params.document as UploadedFile).text).bookings).toEqual([]);
  });
});

describe('/forget', () => {
  it('asks first; "Нет" keeps everything; "Да" cancels (queue promoted, staff told) and erases; every press is answered', async () => {
    const customer = telegramUser('miroslava_f');
    const u = tgUser(customer.id, 'miroslava_f');
    const waiting = telegramUser('waiting_f');
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE, capacity: 2 });
    const mine = (
      await book(t.app, customer, bookingPayload(schedule.id, { name: 'Мирослава', people_count: 2 }))
    ).json().record.id;
    const queued = (await book(t.app, waiting, bookingPayload(schedule.id, { people_count: 2 }))).json().record.id;
    await deliver(t);
    fake.reset();

    await send(textUpdate(u, '/forget'));
    const ask = fake.messages(u.id).at(-1)!;
    expect(plain(ask.params.text)).toContain('Удалить ваши персональные данные?');
    expect(plain(ask.params.text)).toContain('Ваши предстоящие записи (1) будут отменены');
    const buttons = keyboardOf(ask).flat();
    expect(buttons.map((b) => b.text)).toEqual(['Да, удалить мои данные', 'Нет, оставить']);
    for (const b of buttons) expect(Buffer.byteLength(b.callback_data!)).toBeLessThanOrEqual(64);

    await send(callbackUpdate(u, 'forget:no'));
    expect(fake.ok('answerCallbackQuery')).toHaveLength(1);
    expect(fake.ok('editMessageText').at(-1)!.params.text).toBe('Хорошо, ничего не удаляем.');
    const kept = await t.app.inject({ method: 'GET', url: `/api/v1/records/${mine}`, headers: staff });
    expect(kept.json().record).toMatchObject({ name: 'Мирослава', state: 'ACTIVE' });

    await send(textUpdate(u, '/forget'));
    await send(callbackUpdate(u, 'forget:yes'));
    expect(fake.ok('answerCallbackQuery').at(-1)!.params.text).toBe('Данные удалены');
    expect(plain(fake.ok('editMessageText').at(-1)!.params.text)).toContain(
      'Готово: ваши персональные данные удалены.\nОтменено предстоящих записей: 1.',
    );

    const after = await t.app.inject({ method: 'GET', url: `/api/v1/records/${mine}`, headers: staff });
    expect(after.json().record).toMatchObject({
      name: ERASED_NAME,
      state: 'CANCELLED',
      telegram_id: null,
      telegram_login: null,
      people_count: 2,
    });
    const promoted = await t.app.inject({ method: 'GET', url: `/api/v1/records/${queued}`, headers: staff });
    expect(promoted.json().record.state).toBe('ACTIVE');
    // No conversation state of that chat is left, and no message waits for it.
    const sessions = await t.database.db.selectFrom('bot_sessions').select('key').execute();
    expect(sessions.filter((s) => s.key.endsWith(`:${u.id}`) || s.key === String(u.id))).toEqual([]);
    fake.reset();
    await deliver(t);
    expect(fake.messages(u.id)).toEqual([]);
    expect(plain(fake.messages(waiting.id)[0].params.text)).toContain('Освободилось место!');

    // A stale button afterwards is still answered.
    await send(callbackUpdate(u, 'forget:yes'));
    expect(fake.ok('answerCallbackQuery')).toHaveLength(1);
  });
});

describe('/forget by a staff member linked to this chat', () => {
  it('says their alerts stop coming here, and unlinks the staff account', async () => {
    const chef = await createStaff(t, 'chef-forget@example.com');
    const u = tgUser(telegramUser().id, 'chef_forget');
    const { token } = await createLinkToken(t.database, chef.id);
    await consumeLinkToken(t.database, token, { id: u.id, username: 'chef_forget' });

    await send(textUpdate(u, '/forget'));
    expect(plain(fake.messages(u.id).at(-1)!.params.text)).toContain(
      'Уведомления сотрудника chef-forget@example.com перестанут приходить в этот чат.',
    );
    await send(callbackUpdate(u, 'forget:yes'));
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: chef });
    expect(me.json()).toMatchObject({ email: 'chef-forget@example.com', telegram_id: null, telegram_login: null });
  });
});
