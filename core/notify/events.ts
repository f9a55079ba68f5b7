import type { RecordSchedule } from '../../contract';
import type { PaymentRow } from '../../db/repositories/payments';
import type { RecordRow } from '../../db/repositories/records';
import type { Actor } from '../kernel/actor';
import type { AuditEntity, AuditValues } from './audit';
import type { Notification, StaffNotification } from './notifications';

/*
 * What happened, as commands report it. A command changes rows and returns its events; the publisher
 * (publish.ts) turns each event into its audit row and its outbox rows in the command's transaction,
 * so "what is logged" and "who is told" are decided there, once, and no command writes either by hand.
 */

/** A change of one booking: the row before (null when created) and after, with its session. */
interface RecordChange<T extends string> {
  type: T;
  actor: Actor;
  before: RecordRow | null;
  record: RecordRow;
  schedule: RecordSchedule;
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
  | { type: 'schedule.deleted'; actor: Actor; before: ScheduleFields; schedule: RecordSchedule; told: RecordRow[] }
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

/** A message that belongs to no change of a booking (a reminder, a digest, new dates), at most once per key. */
export interface MessageEvent {
  type: 'message';
  chat_id: number;
  notification: Notification;
  dedupe_key?: string;
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

/** An alert to staff about no booking (a certificate to confirm or written off): each who switched it on. */
export interface StaffAlertEvent {
  type: 'staff.alert';
  notification: StaffNotification;
}

export type DomainEvent = RecordEvent | ScheduleEvent | EntityEvent | MessageEvent | MoneyEvent | StaffAlertEvent;

/** What a command gives back: its result and what happened. */
export interface Outcome<T> {
  value: T;
  events: DomainEvent[];
}
