import type { RecordSchedule } from '../../contract';
import type { PaymentRow } from '../../db/repositories/payments';
import type { RecordRow } from '../../db/repositories/records';
import type { Actor } from './actor';

/*
 * What happened, as commands report it. A command changes rows and returns its events; the publisher
 * (notify/publish.ts) turns each event into its audit row and its outbox rows in the command's
 * transaction, so "what is logged" and "who is told" are decided there, once, and no command writes
 * either by hand. The plain messages (notify's MessageEvent, StaffAlertEvent) are declared by notify.
 */

/** What an audit row is about (its table). */
export type AuditEntity = 'record' | 'schedule' | 'workshop' | 'address' | 'user' | 'settings' | (string & {});

/** The values an audit row keeps before and after. */
export type AuditValues = Record<string, unknown>;

/** A change of one booking: the row before (null when created) and after, with its session. */
interface RecordChange<T extends string> {
  type: T;
  actor: Actor;
  before: RecordRow | null;
  record: RecordRow;
  schedule: RecordSchedule;
  /** What the command read already (a booking just made): its whole ledger, its place in the queue; not read again. */
  ledger?: PaymentRow[];
  queue_position?: number | null;
}

export type RecordEvent =
  | RecordChange<'record.created'>
  | RecordChange<'record.people_changed'>
  /** `session_cancelled`: the whole session was cancelled: the customer is told so with its reason, staff once per session. */
  | (RecordChange<'record.cancelled'> & { session_cancelled?: boolean })
  | RecordChange<'record.restored'>
  /** The queue served this booking; `silent` when the change that freed the seats tells the customer itself. */
  | (RecordChange<'record.promoted'> & { silent: boolean })
  /** The booking became a friend's (a seat gift). */
  | RecordChange<'record.transferred'>
  /** The customer answered «Приду». */
  | RecordChange<'record.confirmed'>
  | RecordChange<'record.attendance'>;

export type ScheduleFields = { date: string; capacity: number; workshop_id: number; address_id: number };

export type ScheduleEvent =
  | { type: 'schedule.created'; actor: Actor; schedule_id: number; after: ScheduleFields }
  | {
      type: 'schedule.updated';
      actor: Actor;
      before: ScheduleFields;
      after: Partial<ScheduleFields>;
      schedule: RecordSchedule;
      /** Bookings to tell about a new date or address (none for a past session). */
      told: RecordRow[];
      changed: { date: boolean; address: boolean };
    }
  | { type: 'schedule.deleted'; actor: Actor; before: ScheduleFields; schedule_id: number }
  /**
   * Staff (or the minimum-participants rule, `by_rule`) cancelled the session: it stays in history;
   * each booking's own cancel follows as a record event. Staff get one alert for the session with
   * what it had: ACTIVE bookings and their people, and queued bookings.
   */
  | {
      type: 'schedule.cancelled';
      actor: Actor;
      schedule: RecordSchedule;
      reason: string;
      by_rule: boolean;
      bookings: number;
      people: number;
      queued: number;
    };

/** A staff edit of a plain resource (workshop, address, user, settings): logged, nobody is told. */
export interface EntityEvent {
  type: 'entity.created' | 'entity.updated' | 'entity.deleted' | 'entity.erased';
  actor: Actor;
  entity: AuditEntity;
  entity_id: number;
  before?: AuditValues | null;
  after?: AuditValues | null;
}

/** What a booking's money looked like before and after a ledger row. */
export interface MoneyState {
  amount_paid: number;
  status: string;
}

/**
 * A row appended to the money ledger. `tell`: paid (the customer and staff hear of a payment that
 * arrived), late (it arrived for a booking that no longer takes it: it went to the customer's credit
 * and staff are alerted); absent: only logged (the booking's own message says it, or staff did it).
 */
export interface MoneyEvent {
  type: 'money.recorded';
  actor: Actor;
  payment: PaymentRow;
  /** The booking and its session; null for a credit adjustment or a booking since deleted. */
  record: RecordRow | null;
  schedule: RecordSchedule | null;
  before: MoneyState | null;
  after: MoneyState | null;
  tell?: 'paid' | 'late';
}

export type DomainEvent = RecordEvent | ScheduleEvent | EntityEvent | MoneyEvent;

/** What a command gives back: its result and what happened (`E`: wider where it also sends plain messages). */
export interface Outcome<T, E = DomainEvent> {
  value: T;
  events: E[];
}
