import { type Executor } from '../../db/database';
import { enqueueNotifications, existingDedupeKeys } from '../../db/repositories/notifications';
import type { RecordRow } from '../../db/repositories/records';
import { listAlertRecipients } from '../../db/repositories/users';
import type { CustomerNotification, Notification, StaffNotification } from './notifications';

/* Writing the outbox: a message to a customer, to staff who switched its kind on, or to a chat, in the change's transaction. */

/** Tells the customer, when the booking came from Telegram. */
export async function notifyCustomer(
  trx: Executor,
  r: Pick<RecordRow, 'telegram_id'>,
  n: CustomerNotification,
): Promise<void> {
  if (r.telegram_id == null) return;
  await enqueueNotifications(trx, [{ chat_id: r.telegram_id, kind: n.kind, payload: n.payload }]);
}

// A seat handed to a friend changes who comes, like a new booking does.
const SETTING_OF = {
  'staff.new_record': 'user_apply',
  'staff.cancelled': 'user_cancel',
  'staff.transferred': 'user_apply',
  'staff.paid': 'user_apply',
  'staff.erased_money': 'user_cancel',
  'staff.certificate': 'user_apply',
  'staff.session_cancelled': 'user_cancel',
  'staff.money': 'user_apply',
} as const;

/**
 * Repeated alerts about one booking coalesce: a cancel undone and redone (200 times, by a script, or
 * twice by a hesitant customer) is told to staff once. An alert of these kinds carries a dedupe key
 * naming the booking, the recipient and the minute; it is not written when the key of this minute or
 * the previous one exists, so a second alert about the same booking follows after a minute at the
 * earliest. (A transfer always alerts: each one changes who comes.)
 */
export const STAFF_ALERT_COALESCE_MS = 60_000;
const COALESCED: ReadonlySet<StaffNotification['kind']> = new Set(['staff.new_record', 'staff.cancelled']);
const staffAlertKey = (kind: string, recordId: number, userId: number, slot: number) =>
  `${kind}:${recordId}:${userId}:${slot}`;

/** Alerts every staff member linked to Telegram who has this alert switched on. */
export async function notifyStaff(trx: Executor, n: StaffNotification, now = Date.now()): Promise<void> {
  const recipients = await listAlertRecipients(trx, SETTING_OF[n.kind]);
  if (!COALESCED.has(n.kind) || !('record' in n.payload)) {
    await enqueueNotifications(
      trx,
      recipients.map((r) => ({ chat_id: r.chat_id, kind: n.kind, payload: n.payload })),
    );
    return;
  }
  const slot = Math.floor(now / STAFF_ALERT_COALESCE_MS);
  const recordId = n.payload.record.record_id;
  const recent = await existingDedupeKeys(
    trx,
    recipients.flatMap((r) => [slot, slot - 1].map((s) => staffAlertKey(n.kind, recordId, r.user_id, s))),
  );
  await enqueueNotifications(
    trx,
    recipients
      .filter((r) => ![slot, slot - 1].some((s) => recent.has(staffAlertKey(n.kind, recordId, r.user_id, s))))
      .map((r) => ({
        chat_id: r.chat_id,
        kind: n.kind,
        payload: n.payload,
        dedupe_key: staffAlertKey(n.kind, recordId, r.user_id, slot),
      })),
  );
}

/** Writes a message that must exist once at most: the dedupe key makes it idempotent across runs, restarts and instances. */
export async function notifyOnce(trx: Executor, chatId: number, n: Notification, dedupeKey: string): Promise<void> {
  await enqueueNotifications(trx, [{ chat_id: chatId, kind: n.kind, payload: n.payload, dedupe_key: dedupeKey }]);
}

/** Writes a message to one chat that is not about one of its bookings (e.g. new dates of a workshop). */
export async function notifyChat(trx: Executor, chatId: number, n: Notification): Promise<void> {
  await enqueueNotifications(trx, [{ chat_id: chatId, kind: n.kind, payload: n.payload }]);
}
