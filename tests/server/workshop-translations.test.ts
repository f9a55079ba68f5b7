import { describe, expect, it } from 'vitest';
import { renderNotificationForChat } from '../../bot/messages';
import { readNotification } from '../../core/notify/notifications';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { bookingPayload, createSession } from '../helpers/factories';
import { tma } from '../helpers/telegram';

/* A workshop's English and Serbian title and description: edited by staff, shown to customers in their language. */

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const customer = (id: number, language_code: string) => ({ id, first_name: 'Ana', language_code });

describe('workshop translations', () => {
  it('are stored, an empty one is none, and the public schedule carries them', async () => {
    const { workshop, schedule } = await createSession(t.app, staff);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workshops/${workshop.id}`,
      headers: staff,
      payload: { title_en: 'Home-made pasta', description_en: 'We cook together', title_sr: '  ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      title: 'Паста',
      title_en: 'Home-made pasta',
      description_en: 'We cook together',
      title_sr: null,
      description_sr: null,
    });
    const open = (await t.app.inject({ method: 'GET', url: '/api/v1/schedule/public' })).json();
    const session = open.data.find((s: { id: number }) => s.id === schedule.id);
    expect(session.workshop).toMatchObject({ title: 'Паста', title_en: 'Home-made pasta', title_sr: null });
  });

  it("a customer's notification names the workshop in their language; Russian where it has no translation", async () => {
    const { workshop, schedule } = await createSession(t.app, staff);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workshops/${workshop.id}`,
      headers: staff,
      payload: { title_en: 'Home-made pasta' },
    });
    const rc = {
      publicUrl: 'https://example.com',
      timezone: 'Europe/Belgrade',
      businessName: 'Studio',
      calendarPath: () => '/c.ics',
    };
    for (const [id, code, title] of [
      [7101, 'en', 'Home-made pasta'],
      [7102, 'sr', 'Паста'],
      [7103, 'ru', 'Паста'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/records/',
        headers: tma(customer(id, code)),
        payload: bookingPayload(schedule.id),
      });
      expect(res.statusCode).toBe(201);
      const row = await t.database.db
        .selectFrom('notifications')
        .select(['kind', 'payload'])
        .where('chat_id', '=', id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const message = await renderNotificationForChat(t.database.db, readNotification(row.kind, row.payload), id, rc);
      expect(JSON.stringify(message)).toContain(title);
    }
  });

  it("the .ics is in the customer's language, with the workshop's title in it", async () => {
    const { workshop, schedule } = await createSession(t.app, staff);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workshops/${workshop.id}`,
      headers: staff,
      payload: { title_sr: 'Domaća pasta' },
    });
    const ics = async (id: number, code: string) => {
      const view = (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/records/',
          headers: tma(customer(id, code)),
          payload: bookingPayload(schedule.id),
        })
      ).json();
      return (await t.app.inject({ method: 'GET', url: view.calendar_url })).body.replace(/\r\n /g, '');
    };
    const sr = await ics(7301, 'sr');
    expect(sr).toContain('SUMMARY:Domaća pasta');
    expect(sr).toContain('Radionica „Domaća pasta“');
    expect(sr).toContain('Vaša prijava: ');
    const en = await ics(7302, 'en');
    expect(en).toContain('Workshop “Паста”');
    expect(en).toContain('Your booking: ');
    expect(await ics(7303, 'uk')).toContain('Мастер-класс «Паста»');
  });

  it("GET /language/: the Telegram app's language for the mini-app, Russian for an unknown one", async () => {
    const ask = async (id: number, code: string) =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/language/', headers: tma(customer(id, code)) })).json();
    expect(await ask(7201, 'en-US')).toEqual({ language: 'en' });
    expect(await ask(7202, 'sr')).toEqual({ language: 'sr' });
    expect(await ask(7203, 'de')).toEqual({ language: 'ru' });
  });
});
