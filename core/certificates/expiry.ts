import { formatCertificateCode } from '../../contract';
import { type Database } from '../../db/database';
import {
  insertCertificateEntry,
  listDueReminders,
  listExpiredUnsettled,
  updateCertificate,
} from '../../db/repositories/certificates';
import { SYSTEM } from '../kernel/actor';
import { type Published } from '../notify/publish';
import { writeOffOf } from '../ledger/certificate-spend';
import { certificateAudit, onCertificate, writtenOff } from './certificate-rows';

/* Expiry: what is left is written off once, and the recipient is reminded a month before. */

/** The recipient is reminded this long before the certificate expires. */
export const REMIND_BEFORE_DAYS = 30;

/**
 * Writes off what expired certificates still held (an expiry entry, so the balance is reported, not
 * silently dropped) and tells staff; each certificate once (expired_at), under its lock.
 */
export async function settleExpiredCertificates(database: Database, now = new Date()): Promise<number> {
  let done = 0;
  for (const { id } of await listExpiredUnsettled(database.db, now.toISOString()))
    done += await onCertificate(database, id, async (trx, c) => {
      if (c.expired_at !== null || c.voided_at !== null || c.paid_at === null) return { value: 0, events: [] };
      if (c.balance > 0)
        await insertCertificateEntry(trx, {
          certificate_id: c.id,
          kind: 'expiry',
          ...writeOffOf(c),
          record_id: null,
          payment_id: null,
          note: null,
          recorded_by_kind: 'system',
          recorded_by_user_id: null,
        });
      await updateCertificate(trx, c.id, { expired_at: now.toISOString() });
      const events: Published[] = [certificateAudit(SYSTEM, c, 'updated', { expired: true, ...writtenOff(c) })];
      if (c.balance > 0)
        events.push({
          type: 'staff.alert',
          notification: {
            kind: 'staff.certificate',
            payload: {
              event: 'expired',
              code: formatCertificateCode(c.code),
              // A places certificate's places are written off: their value is unknown.
              amount: c.kind === 'places' ? 0 : c.balance,
              places: c.kind === 'places' ? c.balance : null,
              buyer_telegram_id: c.buyer_telegram_id === null ? null : Number(c.buyer_telegram_id),
              buyer_name: c.buyer_name,
            },
          },
        });
      return { value: 1, events };
    });
  return done;
}

/** One message to a linked recipient 30 days before expiry, while something is left (once: reminded_at and its key). */
export async function remindExpiringCertificates(database: Database, now = new Date()): Promise<number> {
  const until = new Date(now.getTime() + REMIND_BEFORE_DAYS * 86_400_000).toISOString();
  let done = 0;
  for (const { id } of await listDueReminders(database.db, now.toISOString(), until))
    done += await onCertificate(database, id, async (trx, c) => {
      if (c.reminded_at !== null || c.recipient_telegram_id === null) return { value: 0, events: [] };
      await updateCertificate(trx, c.id, { reminded_at: now.toISOString() });
      if (c.balance <= 0) return { value: 0, events: [] };
      return {
        value: 1,
        events: [
          {
            type: 'message',
            chat_id: Number(c.recipient_telegram_id),
            notification: {
              kind: 'certificate.expiring',
              payload: {
                code: formatCertificateCode(c.code),
                balance: c.balance,
                places_left: c.kind === 'places' ? c.balance : null,
                expires_at: c.expires_at,
              },
            },
            dedupe_key: `certificate-expiring:${c.id}`,
          },
        ],
      };
    });
  return done;
}
