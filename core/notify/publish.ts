import { z } from 'zod';
import type { RecordSchedule } from '../../contract';
import { fullName } from '../../contract/format';
import type { Executor } from '../../db/database';
import type { PaymentRow } from '../../db/repositories/payments';
import { queuePosition, type RecordRow } from '../../db/repositories/records';
import { getUserById } from '../../db/repositories/users';
import { SYSTEM } from '../kernel/actor';
import type { DomainEvent, MoneyEvent, RecordEvent } from '../kernel/events';
import { moneySnapshot } from '../ledger/ledger';
import { auditUpdate, writeAudit, type AuditValues } from './audit';
import { personal } from './personal';
import { notifyChat, notifyCustomer, notifyOnce, notifyStaff } from './outbox';
import { type Notification, type RecordPayload, type StaffNotification } from './notifications';
import { recordSnapshot, scheduleSnapshot } from './snapshots';

/*
 * The one publisher: each event's audit row and outbox rows, written in the transaction of the
 * command that produced it (so the change, its log entry and its messages commit together or not at
 * all). It changes nothing else: the command already let the money follow (ledger/policy.ts) and
 * returned those rows as events. Payloads are snapshots taken here, after the whole command: a
 * message tells the booking as it was committed, queue place and money included.
 */

/** A message that belongs to no change of a booking (a reminder, a digest, new dates), at most once per key. */
export interface MessageEvent {
  type: 'message';
  chat_id: number;
  notification: Notification;
  dedupe_key?: string;
}

/** An alert to staff about no booking (a certificate to confirm or written off): each who switched it on. */
export interface StaffAlertEvent {
  type: 'staff.alert';
  notification: StaffNotification;
}

/** What the publisher takes: the domain's events and the plain messages. */
export type Published = DomainEvent | MessageEvent | StaffAlertEvent;

/** The fields of a booking its log entries show. */
export const bookingState = (r: RecordRow): AuditValues => ({
  state: r.state,
  people_count: r.people_count,
  ...(r.cancel_reason !== null && { cancel_reason: r.cancel_reason }),
});

/** The personal fields a booking's log entries may hold (of its owner at the time): erasure clears them there. */
export const BookingLogValues = z.object({
  telegram_id: personal(z.number().nullable()),
  name: personal(z.string()),
  last_name: personal(z.string().nullable()),
  telegram_login: personal(z.string().nullable()),
  comment: personal(z.string().nullable(), 'health'),
  has_allergy: personal(z.boolean(), 'health'),
  allergy_type: personal(z.string().nullable(), 'health'),
});

export async function recordPayload(
  trx: Executor,
  r: RecordRow,
  schedule: RecordSchedule,
  known: { ledger?: PaymentRow[]; queue_position?: number | null } = {},
): Promise<RecordPayload> {
  const position = r.state === 'QUEUED' ? (known.queue_position ?? (await queuePosition(trx, r))) : null;
  return {
    schedule: scheduleSnapshot(schedule),
    record: recordSnapshot(r, position),
    money: await moneySnapshot(trx, r, known.ledger),
  };
}

const recordAudit = (e: RecordEvent, action: string, before: AuditValues | null, after: AuditValues | null) => ({
  actor: e.actor,
  entity: 'record',
  entity_id: e.record.id,
  action,
  before,
  after,
});

async function publishRecordEvent(trx: Executor, e: RecordEvent): Promise<void> {
  const { record: r, before: b } = e;
  const payload = () => recordPayload(trx, r, e.schedule, e);
  switch (e.type) {
    case 'record.created': {
      await writeAudit(
        trx,
        recordAudit(e, 'created', null, { ...bookingState(r), schedule_id: r.schedule_id, name: r.name }),
      );
      const p = await payload();
      await notifyCustomer(trx, r, { kind: r.state === 'ACTIVE' ? 'record.booked' : 'record.queued', payload: p });
      await notifyStaff(trx, { kind: 'staff.new_record', payload: p });
      return;
    }
    case 'record.people_changed':
      await writeAudit(trx, recordAudit(e, 'people_changed', bookingState(b!), bookingState(r)));
      await notifyCustomer(trx, r, {
        kind: 'record.people_changed',
        payload: { ...(await payload()), previous_people_count: b!.people_count },
      });
      return;
    case 'record.cancelled': {
      await writeAudit(trx, recordAudit(e, 'cancelled', bookingState(b!), bookingState(r)));
      const p = await payload();
      await notifyCustomer(
        trx,
        r,
        e.session_cancelled
          ? { kind: 'schedule.cancelled', payload: { ...p, workshop_id: e.schedule.workshop.id } }
          : { kind: 'record.cancelled', payload: p },
      );
      // A cancelled session alerts staff once, as a whole (schedule.cancelled), not once per booking.
      if (!e.session_cancelled) await notifyStaff(trx, { kind: 'staff.cancelled', payload: p });
      return;
    }
    case 'record.restored':
      await writeAudit(trx, recordAudit(e, 'restored', bookingState(b!), bookingState(r)));
      await notifyCustomer(trx, r, { kind: 'record.restored', payload: await payload() });
      return;
    case 'record.promoted':
      // Promotion is the engine's own doing, whoever freed the seats.
      await writeAudit(trx, { ...recordAudit(e, 'promoted', bookingState(b!), bookingState(r)), actor: SYSTEM });
      if (!e.silent) await notifyCustomer(trx, r, { kind: 'record.promoted', payload: await payload() });
      return;
    case 'record.transferred': {
      await writeAudit(
        trx,
        recordAudit(
          e,
          'transferred',
          { telegram_id: b!.telegram_id, name: b!.name },
          { telegram_id: r.telegram_id, name: r.name },
        ),
      );
      const p = {
        ...(await payload()),
        giver_name: fullName(b!),
        giver_telegram_id: b!.telegram_id,
        receiver_name: fullName(r),
      };
      await notifyCustomer(trx, b!, { kind: 'record.given_away', payload: p });
      await notifyCustomer(trx, r, { kind: 'record.received', payload: p });
      await notifyStaff(trx, { kind: 'staff.transferred', payload: p });
      return;
    }
    case 'record.confirmed':
      await writeAudit(trx, recordAudit(e, 'confirmed', null, { confirmed_at: r.confirmed_at }));
      return;
    case 'record.attendance':
      await writeAudit(trx, recordAudit(e, 'attendance', { attendance: b!.attendance }, { attendance: r.attendance }));
      return;
  }
}

/** A ledger row: logged as a change of the booking's money (or of a customer's credit, never naming them). */
async function publishMoneyEvent(trx: Executor, e: MoneyEvent): Promise<void> {
  const p = e.payment;
  await writeAudit(trx, {
    actor: e.actor,
    entity: e.record ? 'record' : 'credit',
    entity_id: e.record?.id ?? p.record_id ?? p.id,
    action: p.kind,
    before: e.before ? { ...e.before } : null,
    after: { ...e.after, amount: p.amount, method: p.method, payment_id: p.id },
  });
  if (!e.tell || !e.record || !e.schedule) return;
  const payload = {
    ...(await recordPayload(trx, e.record, e.schedule)),
    amount: p.amount,
    method: p.method,
    late: e.tell === 'late',
  };
  await notifyCustomer(trx, e.record, { kind: 'record.paid', payload });
  await notifyStaff(trx, { kind: 'staff.paid', payload });
}

/** How staff alerts name a colleague: their full name, else their email. */
async function staffName(trx: Executor, userId: number): Promise<string | null> {
  const u = await getUserById(trx, userId);
  return u ? u.full_name || u.email : null;
}

async function publishOne(trx: Executor, e: Published): Promise<void> {
  switch (e.type) {
    case 'schedule.created':
      await writeAudit(trx, {
        actor: e.actor,
        entity: 'schedule',
        entity_id: e.schedule_id,
        action: 'created',
        after: e.after,
      });
      return;
    case 'schedule.updated':
      await auditUpdate(trx, e.actor, 'schedule', e.schedule.id, e.before, e.after);
      for (const r of e.told)
        await notifyCustomer(trx, r, {
          kind: 'schedule.changed',
          payload: { ...(await recordPayload(trx, r, e.schedule)), changed: e.changed },
        });
      return;
    case 'schedule.deleted':
      await writeAudit(trx, {
        actor: e.actor,
        entity: 'schedule',
        entity_id: e.schedule_id,
        action: 'deleted',
        before: e.before,
      });
      return;
    case 'schedule.cancelled':
      await writeAudit(trx, {
        actor: e.actor,
        entity: 'schedule',
        entity_id: e.schedule.id,
        action: 'cancelled',
        after: { reason: e.reason },
      });
      await notifyStaff(trx, {
        kind: 'staff.session_cancelled',
        payload: {
          schedule: scheduleSnapshot(e.schedule),
          reason: e.reason,
          by: e.actor.kind === 'staff' ? await staffName(trx, e.actor.user_id) : null,
          by_rule: e.by_rule,
          bookings: e.bookings,
          people: e.people,
          queued: e.queued,
        },
      });
      return;
    case 'entity.updated':
      await auditUpdate(trx, e.actor, e.entity, e.entity_id, e.before ?? {}, e.after ?? {});
      return;
    case 'entity.created':
    case 'entity.deleted':
    case 'entity.erased':
      await writeAudit(trx, {
        // An erasure says who asked, never whose: a customer's own is logged without their id.
        anonymous: e.type === 'entity.erased',
        actor: e.actor,
        entity: e.entity,
        entity_id: e.entity_id,
        action: e.type.slice('entity.'.length),
        before: e.before,
        after: e.after,
      });
      return;
    case 'money.recorded':
      await publishMoneyEvent(trx, e);
      return;
    case 'staff.alert':
      await notifyStaff(trx, e.notification);
      return;
    case 'message':
      if (e.dedupe_key) await notifyOnce(trx, e.chat_id, e.notification, e.dedupe_key);
      else await notifyChat(trx, e.chat_id, e.notification);
      return;
    default:
      await publishRecordEvent(trx, e);
  }
}

/** Writes every event's audit row and messages, in order, in the command's transaction. */
export async function publish(trx: Executor, events: readonly Published[]): Promise<void> {
  for (const e of events) await publishOne(trx, e);
}
