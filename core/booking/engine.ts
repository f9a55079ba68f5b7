import type { RecordAllowed, RecordCreate, RecordSchedule } from '../../contract';
import { isPast } from '../../contract/format';
import { nowIso, type Database, type Executor } from '../../db/database';
import { withLocks } from '../../db/lock';
import {
  findOpenBooking,
  getRecord,
  insertRecord,
  listQueue,
  queuePosition,
  seatsAndOpenBooking,
  takenSeats,
  updateRecord,
  type RecordRow,
} from '../../db/repositories/records';
import { getRecordSchedule, placesAvailable } from '../../db/repositories/schedules';
import { listPaymentsOfRecord, type PaymentRow } from '../../db/repositories/payments';
import { closeSeatGifts } from '../../db/repositories/seat-gifts';
import { SYSTEM, type Actor } from '../kernel/actor';
import { Conflict, NotFound } from '../kernel/errors';
import { MSG } from '../kernel/messages';
import type { BusinessSettings } from '../../contract';
import type { DomainEvent, Outcome } from '../kernel/events';
import { publish } from '../notify/publish';
import { getBusinessSettings } from '../kernel/settings';
import { countCertificateAttempt } from '../ledger/certificate-attempts';
import { certificateForBooking } from '../ledger/certificate-spend';
import { promoForBooking, reclaimPromo, repricePromo } from '../ledger/discount';
import { onBooked, onCancelled, onPartyChanged, onPromoted, onRestored } from '../ledger/policy';
import { allowedActions, assertAllowed } from './allowed';
import { changeDeadline } from './change-deadline';
import { loadForActor, onRecord, type OnRecord } from './command';
import { consentFor } from './consent';

/*
 * The booking engine: the one place that decides a booking's state.
 * Seats taken = people on ACTIVE records; a booking is ACTIVE when it fits the seats left,
 * else QUEUED. Whatever can free seats ends with fill(), which walks the queue in order and
 * promotes every record that fits. Every command runs under the schedule's lock (command.ts), lets
 * the booking's money follow its change (ledger/policy.ts: what is spent, held or given back) and
 * returns both as its events, which the publisher logs and tells in the same transaction.
 */

/** The reason of a booking that left the queue. */
export const LEFT_QUEUE_REASON = 'Вышел(а) из очереди';

/** Who a new booking is for: the verified Telegram user, or whom staff name when booking on their behalf. */
export interface Customer {
  telegram_id: number | null;
  telegram_login: string | null;
}

export interface RecordResult {
  record: RecordRow;
  schedule: RecordSchedule;
  places_available: number;
  queue_position: number | null;
  /** The last moment the customer may change the booking (the business's change deadline), null: until the start. */
  change_until: string | null;
  /** How to reach the studio, shown when a change is refused. */
  contact: string;
  /** What the caller may do with it now. */
  allowed: RecordAllowed;
  /** The studio's settings the command read (the view's money and ways to pay follow them). */
  settings: BusinessSettings;
  /** The booking's whole ledger, when the caller has it: a view reads it with the row; a booking just made that paid nothing has none. */
  ledger?: readonly PaymentRow[];
  /** Made by this command: no fiscal receipt of it is issued yet (the fiscal sender issues them after the commit). */
  created?: boolean;
}

export async function loadSchedule(
  trx: Executor,
  scheduleId: number,
  opts?: { lock: boolean },
): Promise<RecordSchedule> {
  const schedule = await getRecordSchedule(trx, scheduleId, opts);
  if (!schedule) throw new NotFound(MSG.scheduleNotFound);
  return schedule;
}

async function freeSeats(trx: Executor, schedule: { id: number; capacity: number }) {
  return placesAvailable(schedule.capacity, await takenSeats(trx, schedule.id));
}

/**
 * The booking as the caller's page shows it, after a command or on its own (`known`: the seats left and
 * its ledger, when the command knows them already).
 */
async function resultOf(
  c: OnRecord,
  known: { places?: number; ledger?: readonly PaymentRow[]; position?: number | null } = {},
): Promise<RecordResult> {
  const { trx, record, schedule, settings } = c;
  return {
    record,
    schedule,
    places_available: known.places ?? (await freeSeats(trx, schedule)),
    queue_position: record.state === 'QUEUED' ? (known.position ?? (await queuePosition(trx, record))) : null,
    change_until: changeDeadline(schedule.date, settings.change_deadline_hours),
    contact: settings.contact,
    allowed: c.allowed,
    settings,
    ledger: known.ledger,
  };
}

/** A booking as its page shows it to `actor` (NotFound when it is not theirs to see). */
export async function viewRecord(db: Executor, actor: Actor, recordId: number): Promise<RecordResult> {
  // No command ran: the row just read is the committed one, and its money needs only its ledger.
  const c = await loadForActor(db, actor, recordId);
  return resultOf(c, { ledger: await listPaymentsOfRecord(db, recordId) });
}

/** The result after a command: the row as it is now, and what the caller may do next. */
async function after(c: OnRecord, record: RecordRow): Promise<RecordResult> {
  const allowed = allowedActions({ ...c, record });
  return resultOf({ ...c, record, allowed });
}

/** Promotes queued records, in queue order, while they fit (each then pays); a party too large keeps its place. */
export async function fill(
  trx: Executor,
  schedule: RecordSchedule,
  settings: BusinessSettings,
  now: Date,
  silentFor?: number,
): Promise<DomainEvent[]> {
  let free = await freeSeats(trx, schedule);
  const events: DomainEvent[] = [];
  for (const q of await listQueue(trx, schedule.id)) {
    if (free <= 0) break;
    if (q.people_count > free) continue;
    const promoted = await updateRecord(trx, q.id, { state: 'ACTIVE', queued_at: null });
    free -= q.people_count;
    // The booking whose own change freed the seats pays in that change's step.
    const money =
      q.id === silentFor ? { record: promoted, events: [] } : await onPromoted(trx, promoted, schedule, settings, now);
    events.push(
      { type: 'record.promoted', actor: SYSTEM, before: q, record: money.record, schedule, silent: q.id === silentFor },
      ...money.events,
    );
  }
  return events;
}

/**
 * Books a session: for the Telegram customer behind `actor`, or for `customer` when staff book on their
 * behalf. A certificate code typed counts against the guessing limit (`address`: where the request came from).
 */
export async function createRecord(
  database: Database,
  actor: Actor,
  input: RecordCreate,
  customer: Customer,
  address: string | null = null,
): Promise<RecordResult> {
  // Counted before the booking's transaction, so a refused code still counts.
  if (input.certificate_code)
    await countCertificateAttempt(database, {
      telegramId: actor.kind === 'customer' ? actor.telegram_id : null,
      address,
    });
  // The customer's lock first, then the session's, taken by the statement that reads it: the settings,
  // which that lock does not guard, are read before it, so other bookings of the session wait less.
  return withLocks(database, { telegramIds: [customer.telegram_id] }, async (trx) => {
    const settings = await getBusinessSettings(trx);
    const schedule = await loadSchedule(trx, input.schedule_id, { lock: true });
    if (isPast(schedule.date)) throw new Conflict(MSG.pastBooking);
    if (schedule.cancelled_at) throw new Conflict(MSG.sessionCancelled);
    const seats = await seatsAndOpenBooking(trx, schedule.id, customer.telegram_id);
    if (seats.openId !== null) throw new Conflict(MSG.alreadyBooked);
    const people = input.people_count ?? 1;
    const consent = await consentFor(trx, input.consent, actor.kind === 'customer', settings);
    // The price's discount first: a promo code's row is locked before a certificate's, as a restore takes them.
    const promo = await promoForBooking(trx, input.promo_code, { schedule, people, telegramId: customer.telegram_id });
    // A gift certificate is checked (and locked) before anything is written; it pays once the price is fixed.
    const certificateId = input.certificate_code ? await certificateForBooking(trx, input.certificate_code) : null;
    // Nothing changes the seats while the session is locked: the count read first still holds.
    const free = placesAvailable(schedule.capacity, seats.taken);
    const state = people <= free ? 'ACTIVE' : 'QUEUED';
    const inserted = await insertRecord(trx, {
      ...consent,
      schedule_id: schedule.id,
      state,
      name: input.name,
      last_name: input.last_name ?? null,
      people_count: people,
      telegram_id: customer.telegram_id,
      telegram_login: customer.telegram_login,
      comment: input.comment ?? null,
      has_allergy: input.has_allergy ?? false,
      allergy_type: input.has_allergy ? (input.allergy_type ?? null) : null,
      source: input.source ?? null,
      is_first_time: input.is_first_time,
      ...promo,
      certificate_id: certificateId,
      // Staff spend a customer's credit only with the customer's agreement.
      credit_declined: actor.kind !== 'customer' && input.use_credit !== true,
      // The workshop's price of this moment (onBooked fixes it, and finds it fixed).
      unit_price: schedule.workshop.price,
    });
    const now = new Date();
    const { record, events: money } = await onBooked(trx, inserted, schedule, settings, now);
    // A booking that paid nothing in its step has no ledger (its id is new); its place in the queue is
    // read once, for its message and its answer.
    const ledger = money.length === 0 ? [] : undefined;
    const position = record.state === 'QUEUED' ? await queuePosition(trx, record) : null;
    await publish(trx, [
      { type: 'record.created', actor, before: null, record, schedule, ledger, queue_position: position },
      ...money,
    ]);
    // Nothing after the insert moves seats: an ACTIVE booking took its people from those that were free.
    const result = await resultOf(
      {
        trx,
        actor,
        record,
        schedule,
        settings,
        now,
        allowed: allowedActions({ actor, record, schedule, settings, now }),
      },
      { places: state === 'ACTIVE' ? free - people : free, ledger, position },
    );
    return { ...result, created: true };
  });
}

export function changePeopleCount(
  database: Database,
  actor: Actor,
  recordId: number,
  peopleCount: number,
): Promise<RecordResult> {
  return onRecord(database, actor, recordId, async (c) => {
    const { trx, record: r, schedule, settings, now } = c;
    assertAllowed(c.allowed, 'change_people');
    if (peopleCount === r.people_count) return { value: await resultOf(c), events: [] };
    const fits = r.state !== 'ACTIVE' || peopleCount - r.people_count <= (await freeSeats(trx, schedule));
    const discount = await repricePromo(trx, r, peopleCount);
    await updateRecord(
      trx,
      r.id,
      fits
        ? { people_count: peopleCount, ...discount }
        : { people_count: peopleCount, ...discount, state: 'QUEUED', queued_at: nowIso() },
    );
    // A smaller party, or seats left behind on the way to the queue, can serve the queue; this record
    // itself may be promoted, and then its one message (the change) says so.
    const promoted = await fill(trx, schedule, settings, now, r.id);
    // Its money follows the row as the queue left it: a smaller party gets back the excess, a promoted one pays.
    const money = await onPartyChanged(trx, r, (await getRecord(trx, r.id))!, schedule, settings, now);
    const events: DomainEvent[] = [
      { type: 'record.people_changed', actor, before: r, record: money.record, schedule },
      ...money.events,
      ...promoted,
    ];
    return { value: await after(c, money.record), events };
  });
}

/** Cancels inside a command that holds the session's lock (a customer's cancel, an erasure, a session cancelled). */
export async function cancelLocked(c: OnRecord, reason: string): Promise<Outcome<RecordRow>> {
  const { trx, record: r, schedule, actor, settings, now } = c;
  const cancelled = await updateRecord(trx, r.id, { state: 'CANCELLED', cancel_reason: reason, queued_at: null });
  // A cancelled booking can no longer be given to a friend, even once restored.
  await closeSeatGifts(trx, r.id, nowIso());
  // What it paid goes back (to certificates, credit, or owed) before anyone is told.
  const money = await onCancelled(trx, cancelled, schedule, settings);
  const promoted = r.state === 'ACTIVE' ? await fill(trx, schedule, settings, now) : [];
  return {
    value: money.record,
    events: [
      { type: 'record.cancelled', actor, before: r, record: money.record, schedule },
      ...money.events,
      ...promoted,
    ],
  };
}

export function cancelRecord(
  database: Database,
  actor: Actor,
  recordId: number,
  reason: string,
): Promise<RecordResult> {
  return onRecord(database, actor, recordId, async (c) => {
    assertAllowed(c.allowed, 'cancel');
    const { value, events } = await cancelLocked(c, reason);
    return { value: await after(c, value), events };
  });
}

/** A queued customer gives up their place in the queue (a cancel with its own reason). */
export function leaveQueue(database: Database, actor: Actor, recordId: number): Promise<RecordResult> {
  return onRecord(database, actor, recordId, async (c) => {
    assertAllowed(c.allowed, 'leave_queue');
    const { value, events } = await cancelLocked(c, LEFT_QUEUE_REASON);
    return { value: await after(c, value), events };
  });
}

export function restoreRecord(database: Database, actor: Actor, recordId: number): Promise<RecordResult> {
  return onRecord(database, actor, recordId, async (c) => {
    const { trx, record: r, schedule, settings, now } = c;
    assertAllowed(c.allowed, 'restore');
    if (r.telegram_id != null && (await findOpenBooking(trx, schedule.id, r.telegram_id, r.id)))
      throw new Conflict(MSG.alreadyBooked);
    const fits = r.people_count <= (await freeSeats(trx, schedule));
    const promo = await reclaimPromo(trx, r, schedule);
    const restored = await updateRecord(
      trx,
      r.id,
      fits
        ? { state: 'ACTIVE', cancel_reason: null, ...promo }
        : { state: 'QUEUED', cancel_reason: null, queued_at: nowIso(), ...promo },
    );
    const money = await onRestored(trx, restored, schedule, settings, now);
    return {
      value: await after(c, money.record),
      events: [{ type: 'record.restored', actor, before: r, record: money.record, schedule }, ...money.events],
    };
  });
}
