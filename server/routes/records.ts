import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParam, RecordCancel, RecordCreate, RecordUpdate, RecordView } from '../../contract';
import { getRecord, toRecordPublic } from '../../db/repositories/records';
import {
  MSG,
  cancelRecord,
  changePeopleCount,
  createRecord,
  restoreRecord,
  viewRecord,
  type Customer,
  type RecordResult,
} from '../../core/booking';
import { NotFound } from '../../core/errors';
import type { RouteDeps } from './deps';
import { actorOf } from '../plugins/actor';

/** Booking changes a Telegram user may make per minute; far above any person's need, far below a script's. */
export const CUSTOMER_WRITES_PER_MINUTE = 20;
const TOO_MANY_CHANGES = 'Слишком много изменений записи за минуту. Подождите минуту и попробуйте снова.';

export const toRecordView = (r: RecordResult): RecordView => ({
  record: { ...toRecordPublic(r.record), schedule: r.schedule },
  places_available: r.places_available,
  queue_position: r.queue_position,
});

export default async function recordsRoutes(app: FastifyInstance, { database }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = database.db;
  const tags = ['records'];
  // A Telegram customer (verified init data) or staff; record calls also check ownership.
  const config = { auth: 'customer' as const };
  // Bookings, cancels and restores: at most CUSTOMER_WRITES_PER_MINUTE per Telegram user (staff are not limited).
  const writeConfig = {
    ...config,
    rateLimit: {
      max: CUSTOMER_WRITES_PER_MINUTE,
      timeWindow: '1 minute',
      hook: 'preHandler' as const,
      keyGenerator: (req: FastifyRequest) => `tg:${req.telegramUser?.id ?? 0}`,
      allowList: (req: FastifyRequest) => !req.telegramUser,
      errorResponseBuilder: () => ({ statusCode: 429, message: TOO_MANY_CHANGES }),
    },
  };

  /** Owner (the Telegram user who booked) or staff only. */
  async function ownRecord(req: FastifyRequest, id: number) {
    const rec = await getRecord(db, id);
    if (!rec) throw new NotFound(MSG.recordNotFound);
    // Someone else's booking answers like a missing one: a customer learns nothing from guessing ids.
    if (!req.staff && rec.telegram_id !== req.telegramUser?.id) throw new NotFound(MSG.recordNotFound);
    return rec;
  }

  r.post(
    '/records/',
    {
      config: writeConfig,
      schema: {
        tags,
        summary: 'Book a schedule',
        errors: [404, 409, 429],
        body: RecordCreate,
        response: { 201: RecordView },
      },
    },
    async (req, reply) => {
      // Identity comes from the verified init data, never from the body; staff may book on a customer's behalf.
      const customer: Customer = req.telegramUser
        ? { telegram_id: req.telegramUser.id, telegram_login: req.telegramUser.username ?? null }
        : { telegram_id: req.body.telegram_id ?? null, telegram_login: req.body.telegram_login ?? null };
      return reply.status(201).send(toRecordView(await createRecord(database, req.body, customer, actorOf(req))));
    },
  );

  r.get(
    '/records/:id',
    { config, schema: { tags, summary: 'A booking', errors: [404], params: IdParam, response: { 200: RecordView } } },
    async (req) => {
      return toRecordView(await viewRecord(db, await ownRecord(req, req.params.id)));
    },
  );

  r.put(
    '/records/:id',
    {
      config: writeConfig,
      schema: {
        tags,
        summary: 'Change the number of people',
        errors: [404, 409, 429],
        params: IdParam,
        body: RecordUpdate,
        response: { 200: RecordView },
      },
    },
    async (req) => {
      return toRecordView(
        await changePeopleCount(database, await ownRecord(req, req.params.id), req.body.people_count, actorOf(req)),
      );
    },
  );

  r.put(
    '/records/cancel/:id',
    {
      config: writeConfig,
      schema: {
        tags,
        summary: 'Cancel a booking',
        errors: [404, 409, 429],
        params: IdParam,
        body: RecordCancel,
        response: { 200: RecordView },
      },
    },
    async (req) => {
      return toRecordView(
        await cancelRecord(database, await ownRecord(req, req.params.id), req.body.cancel_reason, actorOf(req)),
      );
    },
  );

  r.put(
    '/records/restore/:id',
    {
      config: writeConfig,
      schema: {
        tags,
        summary: 'Restore a cancelled booking',
        errors: [404, 409, 429],
        params: IdParam,
        response: { 200: RecordView },
      },
    },
    async (req) => {
      return toRecordView(await restoreRecord(database, await ownRecord(req, req.params.id), actorOf(req)));
    },
  );
}
