import { deleteCustomerLanguage } from '../../db/repositories/customer-languages';
import { deleteCustomerNote, deleteNotesInactiveSince, getCustomerNote } from '../../db/repositories/customer-notes';
import { forgetPaymentsOf } from '../../db/repositories/payments';
import { forgetCertificatesOf } from '../../db/repositories/certificates';
import { ERASED_NAME, type ForgetResult, type PersonalDataExport } from '../../contract';
import { bool, nowIso, type Database, type Executor } from '../../db/database';
import { lockSchedules, withLocks, withWriteTransaction } from '../../db/lock';
import {
  anonymiseRecords,
  countNotificationsTo,
  deleteFinishedNotificationsBefore,
  deleteNotificationsTo,
  deleteRateLimitsOf,
  deleteSeatGiftsOf,
  deleteSubscriptionsOf,
  eraseHealthOfRecords,
  forgetPromoRedeemer,
  getStaffOfTelegram,
  listAuditOfRecords,
  listBookingsOfPerson,
  listRecordsDueForErasure,
  listSubscriptionsOf,
  unlinkStaffTelegram,
} from '../../db/repositories/personal-data';
import { deleteBotSessionsOfChat } from '../../db/repositories/botSessions';
import { SYSTEM, type Actor } from '../kernel/actor';
import { publish } from '../notify/publish';
import { getBusinessSettings } from '../kernel/settings';
import { cancelLocked } from '../booking/engine';
import { loadForActor } from '../booking/command';
import { erasePaymentNames } from '../../db/repositories/payment-names';
import { deleteConsentsOf, eraseReceiptBuyers, getReceiptConsent } from '../../db/repositories/customer-receipts';
import { bookingsErasure, eraseCopies, givenAwayBookings, personErasure, type Erasure } from './erasure';
import { erasureMoney, leaveOwed, type ErasureMoney } from './erasure-money';

/*
 * A customer's personal data: what the export shows, and erasure. Erasing a booking keeps the row
 * (party size, dates, state, source, attendance, rating: counts and statistics stay right) and
 * replaces what identifies the person; every copy elsewhere in the database (outbox payloads,
 * audit before/after values, subscriptions, bot conversation state) goes with it.
 */

/** Who asks: the Telegram user from verified init data or the bot update. */
export interface TelegramPerson {
  id: number;
  username?: string | null;
}

/** The reason a forgotten customer's upcoming bookings are cancelled with (staff see it). */
export const FORGET_REASON = 'Клиент удалил свои персональные данные';

const loginsOf = (p: TelegramPerson) => (p.username ? [p.username, `@${p.username}`] : []);

const parseJson = (s: string | null): unknown => {
  if (s === null) return null;
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return s;
  }
};

/** Upcoming: what an erasure now would cancel. */
const upcomingOf = (rows: { id: number; state: string; schedule_date: string }[], now: string) =>
  rows.map((r) => ({ id: r.id, upcoming: r.state !== 'CANCELLED' && r.schedule_date > now }));

/** Everything stored about a Telegram user: bookings with their sessions, subscriptions, the bookings' history, their money. */
export async function exportPersonalData(db: Executor, person: TelegramPerson): Promise<PersonalDataExport> {
  const rows = await listBookingsOfPerson(db, person.id, loginsOf(person));
  const history = await listAuditOfRecords(
    db,
    rows.map((r) => r.id),
  );
  const staff = await getStaffOfTelegram(db, person.id);
  return {
    telegram_id: person.id,
    exported_at: nowIso(),
    bookings: rows.map(({ schedule_date, workshop_title, address_title, schedule_id: _, ...r }) => ({
      ...r,
      workshop: workshop_title,
      date: schedule_date,
      address: address_title,
      has_allergy: bool(r.has_allergy),
      is_first_time: bool(r.is_first_time),
    })),
    staff_note: (await getCustomerNote(db, person.id))?.note ?? null,
    subscriptions: await listSubscriptionsOf(db, person.id),
    history: history.map((h) => ({
      record_id: h.entity_id,
      action: h.action,
      at: h.at,
      before: parseJson(h.before),
      after: parseJson(h.after),
    })),
    messages: await countNotificationsTo(db, person.id),
    staff_account: staff ? { email: staff.email, full_name: staff.full_name } : null,
    money: await erasureMoney(db, person.id, upcomingOf(rows, nowIso())),
    e_receipts: (await getReceiptConsent(db, person.id))?.given,
  };
}

/* ---------- erasure ---------- */

/** What /forget asks about before it erases: the upcoming bookings it cancels and the money owed back. */
export async function forgetPreview(
  db: Executor,
  person: TelegramPerson,
): Promise<ErasureMoney & { upcoming: number }> {
  const bookings = upcomingOf(await listBookingsOfPerson(db, person.id, loginsOf(person)), nowIso());
  const money = await erasureMoney(db, person.id, bookings);
  return { ...money, upcoming: bookings.filter((b) => b.upcoming).length };
}

/** Erases the people of `e` from `rows` (their bookings now) and from every copy of their values elsewhere. */
async function erase(trx: Executor, database: Database, e: Erasure, rows: number[], now: string): Promise<void> {
  await eraseCopies(trx, database, e);
  if (e.stage === 'all') {
    // A refund receipt's buyer document: before the bookings lose whose they were.
    await eraseReceiptBuyers(trx, { recordIds: [...e.recordIds], telegramId: e.telegramId });
    await anonymiseRecords(trx, rows, ERASED_NAME, now);
    // The cash desk's copy of the name too (each ledger row keeps who it was for).
    await erasePaymentNames(trx, { recordIds: [...e.recordIds], telegramId: e.telegramId }, ERASED_NAME);
  } else await eraseHealthOfRecords(trx, rows, now);
}

/**
 * The customer's right to be forgotten: their upcoming bookings are cancelled through the booking
 * engine (the queue fills, staff are told as with any cancel), then every booking of theirs is
 * anonymised, their values leave the bookings they gave to a friend (older messages, the history),
 * and their subscriptions, bot conversation state and messages go. `actor` is who asked:
 * the customer (logged without their id) or a superuser, for a request that reached the studio
 * another way.
 */
export async function forgetPerson(database: Database, person: TelegramPerson, actor: Actor): Promise<ForgetResult> {
  // The customer's lock first: no booking of theirs can start or change hands until this commits, so the
  // bookings listed under it are all there are; then the sessions of those to cancel.
  return withLocks(database, { telegramIds: [person.id] }, async (trx) => {
    const now = nowIso();
    const upcoming = (await listBookingsOfPerson(trx, person.id, loginsOf(person))).filter(
      (r) => r.state !== 'CANCELLED' && r.schedule_date > now,
    );
    await lockSchedules(
      database,
      trx,
      upcoming.map((r) => r.schedule_id),
    );
    const upcomingIds = new Set(upcoming.map((r) => r.id));
    const money = await erasureMoney(
      trx,
      person.id,
      (await listBookingsOfPerson(trx, person.id, loginsOf(person))).map((r) => ({
        id: r.id,
        upcoming: upcomingIds.has(r.id),
      })),
    );
    let cancelled = 0;
    for (const r of upcoming) {
      // The system cancels: a change deadline binds the customer's own changes, not their erasure. What
      // they paid stays owed back on the booking: credit would be held for nobody.
      const c = await loadForActor(trx, SYSTEM, r.id);
      const { events } = await cancelLocked({ ...c, settings: { ...c.settings, refund_to: 'refund' } }, FORGET_REASON);
      await publish(trx, events);
      cancelled++;
    }
    // Their credit (with what the cancels gave back to it) is owed back too, before their rows lose their name.
    await publish(trx, await leaveOwed(trx, actor, person.id, money));
    // Their bookings now, and those they gave to a friend (whose older messages and history hold their values).
    const theirs = (await listBookingsOfPerson(trx, person.id, loginsOf(person))).map((r) => r.id);
    const given = await givenAwayBookings(trx, database, person.id, theirs);
    await erase(trx, database, personErasure(person.id, theirs, given), theirs, nowIso());
    await deleteSeatGiftsOf(trx, theirs);
    await forgetPromoRedeemer(trx, person.id);
    await deleteNotificationsTo(trx, person.id);
    await deleteSubscriptionsOf(trx, person.id);
    await deleteCustomerNote(trx, person.id);
    // The studio's books keep amounts, dates and methods, never whose they were (their credit is owed back above).
    await forgetPaymentsOf(trx, person.id);
    // Gift certificates keep their amounts and balances, never who bought, received or was greeted.
    await forgetCertificatesOf(trx, person.id);
    await deleteBotSessionsOfChat(trx, person.id);
    await unlinkStaffTelegram(trx, person.id);
    await deleteRateLimitsOf(trx, person.id);
    await deleteCustomerLanguage(trx, person.id);
    await deleteConsentsOf(trx, person.id);
    // Bookings whose values of theirs were erased: their own, and those they gave away.
    const anonymised = theirs.length + given.length;
    // That an erasure happened, and who asked (never whose: that is what was erased).
    await publish(trx, [
      {
        type: 'entity.erased',
        actor,
        entity: 'personal_data',
        entity_id: 0,
        after: { cancelled, anonymised, owed: money.owed },
      },
    ]);
    return { cancelled, anonymised, owed: money.owed };
  });
}

/* ---------- retention ---------- */

const DAY_MS = 86_400_000;
/** Delivered outbox rows are kept this long (to answer "did the customer get it?"), then deleted. */
export const SENT_MESSAGES_KEPT_DAYS = 30;
/** Bookings erased per transaction, and transactions per run: a backlog is worked off over a few ticks. */
const BATCH = 200;
const BATCHES_PER_RUN = 10;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/**
 * The retention job: bookings of schedules older than `allergy_retention_days` lose their allergy and
 * comment, those older than `retention_days` everything personal; delivered messages older than 30
 * days are deleted. Each step selects only what still holds data, so a rerun does nothing.
 */
export async function runRetention(database: Database, now: Date): Promise<number> {
  const settings = await getBusinessSettings(database.db);
  let done = 0;
  const stages = [
    { stage: 'health' as const, before: daysBefore(now, settings.allergy_retention_days) },
    { stage: 'all' as const, before: daysBefore(now, settings.retention_days) },
  ];
  for (const { stage, before } of stages) {
    for (let i = 0; i < BATCHES_PER_RUN; i++) {
      const n = await withWriteTransaction(database, async (trx) => {
        const ids = (await listRecordsDueForErasure(trx, stage, before, BATCH)).map((r) => r.id);
        if (ids.length > 0) await erase(trx, database, bookingsErasure(ids, stage), ids, now.toISOString());
        if (stage === 'all') await deleteSeatGiftsOf(trx, ids);
        return ids.length;
      });
      done += n;
      if (n < BATCH) break;
    }
  }
  // Staff's notes go with the rest of a customer's data: kept while they booked within the retention period.
  done += Number(
    (await withWriteTransaction(database, (trx) => deleteNotesInactiveSince(trx, stages[1].before))).numDeletedRows,
  );
  done += await deleteFinishedNotificationsBefore(database.db, daysBefore(now, SENT_MESSAGES_KEPT_DAYS));
  return done;
}
