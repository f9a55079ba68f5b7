import { randomBytes } from 'node:crypto';
import {
  CERTIFICATE_ALPHABET,
  CERTIFICATE_CODE_LENGTH,
  CERTIFICATE_MSG,
  certificatePagePath,
  formatCertificateCode,
  type CertificateEntry,
  type CertificatePublic,
  type CertificateView,
} from '../../contract';
import { nowIso, type Database, type Executor } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import {
  codeTaken,
  getCertificate,
  getCertificateByCode,
  listCertificateEntries,
  lockCertificate,
  type CertificateEntryRow,
  type CertificateWithBalance,
} from '../../db/repositories/certificates';
import { type Actor } from '../kernel/actor';
import { certificateAllowed } from '../booking/staff-allowed';
import { NotFound } from '../kernel/errors';
import type { AuditValues } from '../notify/audit';
import { publish, type Published } from '../notify/publish';
import { certificateStatus, parseCode } from '../ledger/certificate-spend';

/*
 * Gift certificates: sold at the studio or in Telegram, spent on bookings up to their balance (an
 * amount in RSD, or places for the party, each valued at the booking's price when used: staff sell
 * those at the studio). The balance is the sum of the certificate's entries, changed only under the certificate's lock (and the
 * session's, when a booking spends it), so two bookings spending the last of it never take more than
 * it holds. The money paid for it is a row of the studio's ledger (payments, without a booking); what
 * a booking takes from it is a payments row of method certificate on that booking, and a cancel gives
 * that part back to the certificate, never to cash or credit.
 */

/** 12 symbols of the alphabet from crypto randomness: 32 symbols, so each byte's low 5 bits are uniform. */
export function newCertificateCode(): string {
  const bytes = randomBytes(CERTIFICATE_CODE_LENGTH);
  let code = '';
  for (const b of bytes) code += CERTIFICATE_ALPHABET[b & 31];
  return code;
}

export const toCertificatePublic = (c: CertificateWithBalance, now = nowIso()): CertificatePublic => ({
  id: c.id,
  code: formatCertificateCode(c.code),
  kind: c.kind,
  amount: c.amount,
  places: c.places,
  balance: c.balance,
  places_left: c.kind === 'places' ? c.balance : null,
  status: certificateStatus(c, now),
  buyer_name: c.buyer_name,
  buyer_telegram_id: c.buyer_telegram_id === null ? null : Number(c.buyer_telegram_id),
  recipient_name: c.recipient_name,
  greeting: c.greeting,
  recipient_telegram_id: c.recipient_telegram_id === null ? null : Number(c.recipient_telegram_id),
  expires_at: c.expires_at,
  created_at: c.created_at,
  paid_at: c.paid_at,
  pay_method: c.pay_method,
  voided_at: c.voided_at,
  void_reason: c.void_reason,
  url: certificatePagePath(c.code),
});

export const toEntry = (e: CertificateEntryRow): CertificateEntry => ({
  id: e.id,
  kind: e.kind,
  amount: e.amount,
  places: e.places,
  record_id: e.record_id,
  note: e.note,
  recorded_by_kind: e.recorded_by_kind,
  recorded_by_user_id: e.recorded_by_user_id,
  at: e.at,
});

/** A certificate as the staff member `actor` reads it, with what they may do with it. */
export async function viewOf(db: Executor, actor: Actor, c: CertificateWithBalance): Promise<CertificateView> {
  const view = toCertificatePublic(c);
  return {
    ...view,
    entries: (await listCertificateEntries(db, c.id)).map(toEntry),
    allowed: certificateAllowed(actor, view),
  };
}

export async function byCode(db: Executor, input: string): Promise<CertificateWithBalance> {
  const c = await getCertificateByCode(db, parseCode(input));
  if (!c) throw new NotFound(CERTIFICATE_MSG.notFound);
  return c;
}

export const certificateAudit = (
  actor: Actor,
  c: { id: number },
  action: 'created' | 'updated',
  after: AuditValues,
): Published => ({
  type: action === 'created' ? 'entity.created' : 'entity.updated',
  actor,
  entity: 'certificate',
  entity_id: c.id,
  after,
});

/** A code no certificate has (a collision among 2^60 is a formality, but the column is unique). */
export async function freshCode(trx: Executor): Promise<string> {
  for (;;) {
    const code = newCertificateCode();
    if (!(await codeTaken(trx, code))) return code;
  }
}

export const inMonths = (months: number, from = new Date()) => {
  const d = new Date(from);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString();
};

/** What a void or an expiry wrote off, for the audit log: RSD, or a places certificate's places. */
export const writtenOff = (c: CertificateWithBalance) =>
  c.kind === 'places' ? { written_off_places: c.balance } : { written_off: c.balance };

/** Runs `fn` on one certificate under its lock, re-read inside; publishes what it returns. */
export async function onCertificate<T>(
  database: Database,
  id: number,
  fn: (trx: Executor, c: CertificateWithBalance) => Promise<{ value: T; events: Published[] }>,
): Promise<T> {
  return withWriteTransaction(database, async (trx) => {
    await lockCertificate(trx, id);
    const { value, events } = await fn(trx, (await getCertificate(trx, id))!);
    await publish(trx, events);
    return value;
  });
}
