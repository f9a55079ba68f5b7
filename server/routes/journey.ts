import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dateSubscriptionsApi } from '../../contract/endpoints/date-subscriptions';
import { giftsApi } from '../../contract/endpoints/gifts';
import { languageApi } from '../../contract/endpoints/language';
import { recordsApi } from '../../contract/endpoints/records';
import { viewRecord } from '../../core/booking/engine';
import { MSG } from '../../core/kernel/messages';
import { customerActor } from '../../core/kernel/actor';
import { customerLanguage } from '../../core/language/customer-language';
import { bookingCalendar, verifyCalendarSignature } from '../../core/journey/calendar';
import { dateOffers, subscribe, unsubscribe } from '../../core/journey/date-subscriptions';
import { Forbidden, NotFound } from '../../core/kernel/errors';
import { acceptSeatGift, createSeatGift, giftUrl } from '../../core/journey/seat-gifts';
import { seatGiftView } from '../../core/views/seat-gift-view';
import { getRecord } from '../../db/repositories/records';
import { getRecordSchedule } from '../../db/repositories/schedules';
import { HttpError } from '../http-error';
import type { RouteDeps, TelegramGateway } from './deps';
import { recordPage, recordView } from '../../core/views/record-view';
import { route } from '../route';

const TELEGRAM_ONLY = 'telegramOnly';

/** The Telegram user behind the request (these actions belong to a customer, not to staff). */
function telegramUserOf(req: FastifyRequest) {
  if (!req.telegramUser) throw new Forbidden(TELEGRAM_ONLY);
  return req.telegramUser;
}

/**
 * The customer's journey beyond booking: the booking as a calendar file, giving a seat to a friend
 * and "Сообщить о новых датах".
 */
export default async function journeyRoutes(
  app: FastifyInstance,
  { database, config }: RouteDeps,
  telegram: TelegramGateway | null,
) {
  const db = database.db;

  // Public, but the signature (an HMAC of the id) makes the link unguessable: calendar apps send no init data.
  route(app, recordsApi.calendar, async (req, reply) => {
    const { id } = req.params;
    if (!verifyCalendarSignature(config.secretKey, id, req.query.sig)) throw new NotFound(MSG.recordNotFound);
    const record = await getRecord(db, id);
    const schedule = record && (await getRecordSchedule(db, record.schedule_id));
    if (!record || !schedule) throw new NotFound(MSG.recordNotFound);
    const ics = bookingCalendar({
      recordId: id,
      language: record.telegram_id == null ? undefined : await customerLanguage(db, record.telegram_id),
      schedule,
      businessName: config.businessName,
      timezone: config.businessTimezone,
      recordUrl: `${config.publicUrl}/record/${id}`,
      host: new URL(config.publicUrl).hostname,
    });
    return reply
      .type('text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="booking-${id}.ics"`)
      .header('cache-control', 'private, no-store')
      .send(ics);
  });

  route(app, recordsApi.gift, async (req) => {
    const tg = telegramUserOf(req);
    if (!telegram) throw new HttpError(503, 'Telegram-бот не настроен на сервере');
    const gift = await createSeatGift(database, customerActor(tg.id), req.params.id);
    let username: string;
    try {
      username = await telegram.username();
    } catch (err) {
      req.log.error({ err }, 'telegram: getMe failed');
      throw new HttpError(503, 'Telegram сейчас недоступен, попробуйте позже');
    }
    return { url: giftUrl(username, gift.token), expires_at: gift.expires_at };
  });

  route(app, giftsApi.view, (req) => seatGiftView(database, req.params.token));

  route(app, giftsApi.accept, async (req) => {
    const tg = telegramUserOf(req);
    const b = req.body;
    const { record } = await acceptSeatGift(database, req.params.token, {
      telegram_id: tg.id,
      telegram_login: tg.username ?? null,
      name: b.name,
      last_name: b.last_name ?? null,
      has_allergy: b.has_allergy,
      allergy_type: b.has_allergy ? (b.allergy_type ?? null) : null,
      consent: b.consent,
    });
    const actor = customerActor(tg.id);
    return recordView(db, actor, await viewRecord(db, actor, record.id), recordPage(config));
  });

  // Staff opening the mini-app get the studio's language.
  route(app, languageApi.mine, async (req) => ({
    language: req.telegramUser ? await customerLanguage(db, req.telegramUser.id) : 'ru',
  }));

  route(app, dateSubscriptionsApi.offers, async (req) => ({
    data: await dateOffers(db, req.telegramUser?.id ?? null),
  }));

  route(app, dateSubscriptionsApi.subscribe, async (req) => {
    await subscribe(database, req.params.id, telegramUserOf(req).id);
    return { subscribed: true };
  });
  route(app, dateSubscriptionsApi.unsubscribe, async (req) => {
    await unsubscribe(database, req.params.id, telegramUserOf(req).id);
    return { subscribed: false };
  });
}
