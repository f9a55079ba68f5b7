import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect, Executor } from '../database';

/*
 * The queries behind a customer's export and erasure, and behind retention: who a Telegram user's
 * bookings are, what else in the database mentions them, and the updates that erase it.
 */

/** Every booking of a Telegram user (by id; and bookings staff made with only their @login), with its session. */
export function listBookingsOfPerson(db: Executor, telegramId: number, logins: string[] = []) {
  return db
    .selectFrom('records')
    .innerJoin('schedules', 'schedules.id', 'records.schedule_id')
    .innerJoin('workshops', 'workshops.id', 'schedules.workshop_id')
    .innerJoin('addresses', 'addresses.id', 'schedules.address_id')
    .selectAll('records')
    .select([
      'schedules.date as schedule_date',
      'workshops.title as workshop_title',
      'addresses.title as address_title',
    ])
    .where((eb) =>
      eb.or([
        eb('records.telegram_id', '=', telegramId),
        ...(logins.length > 0
          ? [eb.and([eb('records.telegram_id', 'is', null), eb('records.telegram_login', 'in', logins)])]
          : []),
      ]),
    )
    .orderBy('schedules.date')
    .orderBy('records.id')
    .execute();
}

export type PersonBooking = Awaited<ReturnType<typeof listBookingsOfPerson>>[number];

/** The "new dates" subscriptions of a Telegram user. */
export const listSubscriptionsOf = (db: Executor, telegramId: number) =>
  db
    .selectFrom('date_subscriptions')
    .innerJoin('workshops', 'workshops.id', 'date_subscriptions.workshop_id')
    .select(['workshops.title as workshop', 'date_subscriptions.created_at'])
    .where('date_subscriptions.telegram_id', '=', telegramId)
    .orderBy('date_subscriptions.created_at')
    .execute();

export const deleteSubscriptionsOf = (db: Executor, telegramId: number) =>
  db.deleteFrom('date_subscriptions').where('telegram_id', '=', telegramId).executeTakeFirst();

/** Audit entries about these bookings, oldest first. */
export const listAuditOfRecords = (db: Executor, recordIds: number[]) =>
  recordIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('audit_log')
        .select(['id', 'entity_id', 'action', 'at', 'before', 'after'])
        .where('entity', '=', 'record')
        .where('entity_id', 'in', recordIds)
        .orderBy('id')
        .execute();

/** Outbox rows to this chat (any status). */
export const countNotificationsTo = async (db: Executor, chatId: number) =>
  Number(
    (
      await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('chat_id', '=', chatId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Every outbox row to this chat, pending or delivered: they are messages to that person. */
export const deleteNotificationsTo = (db: Executor, chatId: number) =>
  db.deleteFrom('notifications').where('chat_id', '=', chatId).executeTakeFirst();

/** `column` contains `needle` literally (no LIKE wildcards). */
const contains = (dialect: Dialect, column: string, needle: string): Expression<SqlBool> =>
  dialect === 'postgres'
    ? sql<SqlBool>`strpos(${sql.ref(column)}, ${needle}) > 0`
    : sql<SqlBool>`instr(${sql.ref(column)}, ${needle}) > 0`;

/** A page of outbox rows (id order), for scans that test payloads in code. */
export const listNotificationPayloads = (db: Executor, afterId: number, limit: number) =>
  db
    .selectFrom('notifications')
    .select(['id', 'kind', 'payload'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();

export const setNotificationPayload = (db: Executor, id: number, payload: string) =>
  db.updateTable('notifications').set({ payload }).where('id', '=', id).execute();

/** Audit entries about these bookings, by this person, or whose values contain any of these fragments. */
export const listAuditMentioning = (
  db: Executor,
  dialect: Dialect,
  m: { recordIds: number[]; telegramId: number | null; fragments: string[] },
) => {
  if (m.recordIds.length === 0 && m.telegramId === null && m.fragments.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('audit_log')
    .select(['id', 'entity', 'entity_id', 'action', 'actor_telegram_id', 'before', 'after'])
    .where((eb) =>
      eb.or([
        ...(m.recordIds.length > 0 ? [eb.and([eb('entity', '=', 'record'), eb('entity_id', 'in', m.recordIds)])] : []),
        ...(m.telegramId !== null ? [eb('actor_telegram_id', '=', m.telegramId)] : []),
        ...m.fragments.flatMap((f) => [contains(dialect, 'before', f), contains(dialect, 'after', f)]),
      ]),
    )
    .orderBy('id')
    .execute();
};

export const setAuditValues = (
  db: Executor,
  id: number,
  values: { before: string | null; after: string | null; actor_telegram_id: number | null },
) => db.updateTable('audit_log').set(values).where('id', '=', id).execute();

/** A staff account linked to this Telegram account, if any. */
export const getStaffOfTelegram = (db: Executor, telegramId: number) =>
  db.selectFrom('users').select(['id', 'email', 'full_name']).where('telegram_id', '=', telegramId).executeTakeFirst();

/** The request counters kept for this Telegram user (a key ends in `customer-writes:<id>`): they name them too. */
export const deleteRateLimitsOf = (db: Executor, telegramId: number) =>
  db.deleteFrom('rate_limits').where('key', 'like', `%customer-writes:${telegramId}`).execute();

/** Forgets the Telegram account on staff accounts (their alerts stop until they link again). */
export const unlinkStaffTelegram = (db: Executor, telegramId: number) =>
  db
    .updateTable('users')
    .set({ telegram_id: null, telegram_login: null })
    .where('telegram_id', '=', telegramId)
    .executeTakeFirst();

/** One-time links handing these bookings to a friend: dead once the booking is anonymous. */
export const deleteSeatGiftsOf = (db: Executor, recordIds: number[]) =>
  recordIds.length === 0
    ? Promise.resolve()
    : db.deleteFrom('seat_gifts').where('record_id', 'in', recordIds).execute();

/** The Telegram user is no longer named as the redeemer of a promo code (on seats they gave away too). */
export const forgetPromoRedeemer = (db: Executor, telegramId: number) =>
  db.updateTable('records').set({ promo_telegram_id: null }).where('promo_telegram_id', '=', telegramId).execute();

/** The allergy and comment erased: health data goes first. */
export const eraseHealthOfRecords = (db: Executor, recordIds: number[], now: string) =>
  recordIds.length === 0
    ? Promise.resolve()
    : db
        .updateTable('records')
        .set({ has_allergy: 0, allergy_type: null, comment: null, health_erased_at: now, updated_at: now })
        .where('id', 'in', recordIds)
        .execute();

/** Everything that identifies the customer erased; party size, dates, state, source and the rest kept for statistics. */
export const anonymiseRecords = (db: Executor, recordIds: number[], erasedName: string, now: string) =>
  recordIds.length === 0
    ? Promise.resolve()
    : db
        .updateTable('records')
        .set({
          name: erasedName,
          last_name: null,
          telegram_id: null,
          telegram_login: null,
          promo_telegram_id: null,
          has_allergy: 0,
          allergy_type: null,
          comment: null,
          health_erased_at: now,
          anonymised_at: now,
          updated_at: now,
        })
        .where('id', 'in', recordIds)
        .execute();

/** Bookings of schedules that started before `before` still holding what `stage` erases, oldest first. */
export function listRecordsDueForErasure(
  db: Executor,
  stage: 'health' | 'all',
  before: string,
  limit: number,
): Promise<{ id: number }[]> {
  return db
    .selectFrom('records')
    .innerJoin('schedules', 'schedules.id', 'records.schedule_id')
    .select('records.id')
    .where('schedules.date', '<', before)
    .where(stage === 'health' ? 'records.health_erased_at' : 'records.anonymised_at', 'is', null)
    .orderBy('schedules.date')
    .orderBy('records.id')
    .limit(limit)
    .execute();
}

export const getRecordsByIds = (db: Executor, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('records').selectAll().where('id', 'in', ids).execute();

/** Delivered (or given-up) outbox rows written before `before`: nothing will read them again. */
export const deleteFinishedNotificationsBefore = async (db: Executor, before: string) =>
  Number(
    (
      await db
        .deleteFrom('notifications')
        .where('status', 'in', ['sent', 'failed'])
        .where('created_at', '<', before)
        .executeTakeFirst()
    ).numDeletedRows,
  );
