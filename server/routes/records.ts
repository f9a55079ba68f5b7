import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RecordView } from '../../contract';
import { recordsApi } from '../../contract/endpoints/records';
import { toRecordPublic } from '../../db/repositories/records';
import {
  cancelRecord,
  changePeopleCount,
  createRecord,
  restoreRecord,
  viewRecord,
  type Customer,
  type RecordResult,
} from '../../core/booking/engine';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';
import { route } from '../route';
import { calendarPath } from '../../core/journey/calendar';
import { payOptions } from '../../core/money/pay-options';
import { moneyOfRecord } from '../../core/money/ledger';
import { promoCodeName } from '../../db/repositories/promo-codes';
import { countCertificateAttempt } from '../../core/money/certificates-guard';
import { localizeAllowed } from '../../core/language/api-texts';
import { customerLanguage } from '../../core/language/customer-language';

/** `secretKey` signs the booking's calendar link (left out without it). */
export const toRecordView = (r: RecordResult, secretKey?: string): RecordView => ({
  record: { ...toRecordPublic(r.record), schedule: r.schedule },
  places_available: r.places_available,
  queue_position: r.queue_position,
  change_until: r.change_until,
  contact: r.contact,
  calendar_url: secretKey ? calendarPath(secretKey, r.record.id) : null,
  allowed: r.allowed,
});

const withPromoCode = (v: RecordView, promo_code: string | null): RecordView => ({
  ...v,
  record: { ...v.record, promo_code },
});

export default async function recordsRoutes(app: FastifyInstance, { database, config: appConfig }: RouteDeps) {
  const invoices = Boolean(appConfig.paymentProviderToken && appConfig.botToken);
  // Money is read after the command committed: it includes what followed it (credit spent or returned, the hold).
  // A customer reads why an action is closed in their language.
  const view = async (r: RecordResult, req: FastifyRequest): Promise<RecordView> => ({
    ...withPromoCode(toRecordView(r, appConfig.secretKey), await promoCodeName(db, r.record.promo_code_id)),
    allowed: req.telegramUser ? localizeAllowed(r.allowed, await customerLanguage(db, req.telegramUser.id)) : r.allowed,
    money: await moneyOfRecord(db, r.record.id),
    pay: await payOptions(db, invoices),
  });
  const db = database.db;

  // A Telegram customer (verified init data) or staff; the commands check ownership.
  route(app, recordsApi.create, async (req, reply) => {
    // Identity comes from the verified init data, never from the body; staff may book on a customer's behalf.
    const customer: Customer = req.telegramUser
      ? { telegram_id: req.telegramUser.id, telegram_login: req.telegramUser.username ?? null }
      : { telegram_id: req.body.telegram_id ?? null, telegram_login: req.body.telegram_login ?? null };
    if (req.body.certificate_code)
      await countCertificateAttempt(database, { telegramId: req.telegramUser?.id, address: req.ip });
    return reply.status(201).send(await view(await createRecord(database, actorOf(req), req.body, customer), req));
  });

  route(app, recordsApi.get, async (req) => {
    return view(await viewRecord(db, actorOf(req), req.params.id), req);
  });

  route(app, recordsApi.updatePeople, async (req) => {
    return view(await changePeopleCount(database, actorOf(req), req.params.id, req.body.people_count), req);
  });

  route(app, recordsApi.cancel, async (req) => {
    return view(await cancelRecord(database, actorOf(req), req.params.id, req.body.cancel_reason), req);
  });

  route(app, recordsApi.restore, async (req) => {
    return view(await restoreRecord(database, actorOf(req), req.params.id), req);
  });
}
