import type { RecordSchedule } from '../../contract';
import { enqueueNotifications, type OutboxRow } from '../../db/repositories/notifications';
import { listAlertRecipients } from '../../db/repositories/users';
import type { RecordRow } from '../../db/repositories/records';
import { bool, type Executor } from '../../db/database';

/**
 * What the outbox carries. Each row is a snapshot taken in the transaction of the change,
 * so the message tells what happened then; bot/messages.ts turns a row into text and buttons.
 */
export interface SessionSnapshot {
  schedule_id: number;
  date: string;
  workshop_title: string;
  address_title: string;
  address_description: string | null;
  map_link: string;
}

export interface RecordSnapshot {
  record_id: number;
  state: RecordRow['state'];
  name: string;
  last_name: string | null;
  people_count: number;
  telegram_login: string | null;
  comment: string | null;
  has_allergy: boolean;
  allergy_type: string | null;
  source: string | null;
  is_first_time: boolean;
  cancel_reason: string | null;
  /** Place in the queue when QUEUED, else null. */
  queue_position: number | null;
}

export type CustomerKind =
  | 'record.booked'
  | 'record.queued'
  | 'record.promoted'
  | 'record.cancelled'
  | 'record.restored'
  | 'record.people_changed'
  | 'schedule.changed'
  | 'schedule.deleted'
  | 'schedule.reminder';

export type StaffKind = 'staff.new_record' | 'staff.cancelled';

export interface RecordPayload {
  session: SessionSnapshot;
  record: RecordSnapshot;
  /** record.people_changed: the count before; schedule.changed: what changed. */
  previous_people_count?: number;
  changed?: { date?: boolean; address?: boolean };
}

export const sessionSnapshot = (s: RecordSchedule): SessionSnapshot => ({
  schedule_id: s.id,
  date: s.date,
  workshop_title: s.workshop.title,
  address_title: s.address.title,
  address_description: s.address.description,
  map_link: s.address.map_link,
});

export const recordSnapshot = (r: RecordRow, queuePosition: number | null): RecordSnapshot => ({
  record_id: r.id,
  state: r.state,
  name: r.name,
  last_name: r.last_name,
  people_count: r.people_count,
  telegram_login: r.telegram_login,
  comment: r.comment,
  has_allergy: bool(r.has_allergy),
  allergy_type: r.allergy_type,
  source: r.source,
  is_first_time: bool(r.is_first_time),
  cancel_reason: r.cancel_reason,
  queue_position: r.state === 'QUEUED' ? queuePosition : null,
});

/** Tells the customer (when the booking came from Telegram). */
export async function notifyCustomer(trx: Executor, kind: CustomerKind, r: RecordRow, payload: RecordPayload): Promise<void> {
  if (r.telegram_id == null) return;
  await enqueueNotifications(trx, [{ chat_id: r.telegram_id, kind, payload }]);
}

const SETTING_OF: Record<StaffKind, 'user_apply' | 'user_cancel'> = {
  'staff.new_record': 'user_apply',
  'staff.cancelled': 'user_cancel',
};

/** Alerts every staff member linked to Telegram who has this alert switched on. */
export async function notifyStaff(trx: Executor, kind: StaffKind, payload: RecordPayload): Promise<void> {
  const recipients = await listAlertRecipients(trx, SETTING_OF[kind]);
  const rows: OutboxRow[] = recipients.map((r) => ({ chat_id: r.chat_id, kind, payload }));
  await enqueueNotifications(trx, rows);
}

/** The day-before digest for one staff member (server/services/digest.ts), written once per session and staff member. */
export type DigestKind = 'staff.digest';

export interface DigestPerson {
  record_id: number;
  name: string;
  last_name: string | null;
  telegram_login: string | null;
  people_count: number;
  has_allergy: boolean;
  allergy_type: string | null;
  comment: string | null;
  is_first_time: boolean;
}

export interface DigestPayload {
  session: SessionSnapshot;
  capacity: number;
  /** ACTIVE bookings, in booking order. */
  participants: DigestPerson[];
  /** People on ACTIVE bookings. */
  total_people: number;
  allergies: { name: string; allergy: string }[];
  comments: { name: string; comment: string }[];
  /** QUEUED bookings in the order they are served. */
  queue: DigestPerson[];
}

export type NotificationKind = CustomerKind | StaffKind | DigestKind;

export const digestDedupeKey = (scheduleId: number, userId: number) => `digest:${scheduleId}:${userId}`;

/** Writes one digest per recipient; the dedupe key makes it idempotent across runs, restarts and instances. */
export async function enqueueDigest(trx: Executor, recipients: { user_id: number; chat_id: number }[], payload: DigestPayload): Promise<void> {
  const kind: DigestKind = 'staff.digest';
  await enqueueNotifications(
    trx,
    recipients.map((r) => ({ chat_id: r.chat_id, kind, payload, dedupe_key: digestDedupeKey(payload.session.schedule_id, r.user_id) })),
  );
}
