import type { BusinessSettings, RecordSchedule } from '../../contract';
import {
  CERTIFICATE_MSG,
  formatCertificateCode,
  normalizeCertificateCode,
  type CertificateStatus,
} from '../../contract';
import { nowIso, type Executor } from '../../db/database';
import {
  certificateSpendOfRecord,
  getCertificate,
  getCertificateByCode,
  insertCertificateEntry,
  lockCertificate,
  type CertificateWithBalance,
} from '../../db/repositories/certificates';
import type { RecordRow } from '../../db/repositories/records';
import { SYSTEM, type Actor } from '../kernel/actor';
import { Conflict, Invalid, NotFound } from '../kernel/errors';
import type { MoneyEvent } from '../notify/events';
import { appendToRecord, recordMoney } from './ledger';

/*
 * What a certificate is worth to a booking: its status, and the money it pays on a booking or takes
 * back when the booking is cancelled (the booking's money follows its changes in follow.ts, which
 * calls these under the session's lock; the certificate's own lock is taken here).
 */

export const CERTIFICATE_TEXTS = {
  pastExpiry: 'Срок действия должен быть в будущем',
  notPending: 'Этот сертификат уже оплачен или аннулирован',
  voidedAlready: 'Сертификат уже аннулирован',
  amountNotOffered: 'Выберите сумму из списка',
  telegramOnly: 'Купить сертификат можно из Telegram',
  queued: 'Запись в очереди: сертификат оплатит её, когда место освободится',
  cancelled: 'Запись отменена: оплачивать нечего',
  paidAlready: 'Запись уже оплачена полностью',
  otherCertificate: 'Эту запись уже оплачивает другой сертификат',
  saleNote: (code: string) => `Продажа сертификата ${formatCertificateCode(code)}`,
  spendNote: (code: string) => `Сертификат ${formatCertificateCode(code)}`,
  returnNote: (code: string) => `Возвращено на сертификат ${formatCertificateCode(code)}`,
} as const;

export function certificateStatus(c: CertificateWithBalance, now = nowIso()): CertificateStatus {
  if (c.voided_at !== null) return 'voided';
  if (c.paid_at === null) return 'pending';
  if (c.expired_at !== null || c.expires_at <= now) return 'expired';
  return c.balance > 0 ? 'active' : 'used';
}

export const recordedBy = (actor: Actor) => ({
  recorded_by_kind: actor.kind,
  recorded_by_user_id: actor.kind === 'staff' ? actor.user_id : null,
});

/** Why a certificate cannot pay now, or null when it can. */
export function refusalOf(c: CertificateWithBalance | undefined, now = nowIso()): string | null {
  if (!c) return CERTIFICATE_MSG.notFound;
  switch (certificateStatus(c, now)) {
    case 'voided':
      return CERTIFICATE_MSG.voided;
    case 'pending':
      return CERTIFICATE_MSG.pending;
    case 'expired':
      return CERTIFICATE_MSG.expired;
    case 'used':
      return CERTIFICATE_MSG.usedUp;
    default:
      return null;
  }
}

/* ---------- spending on bookings ---------- */

/**
 * Pays a booking from its certificate, up to what the booking still owes (after its price and any
 * discount were fixed), before studio credit. Nothing when the certificate cannot pay any more.
 */
export async function spendCertificate(
  trx: Executor,
  actor: Actor,
  r: RecordRow,
  schedule: RecordSchedule,
  s: Pick<BusinessSettings, 'prepayment' | 'deposit_percent'>,
): Promise<MoneyEvent[]> {
  if (r.certificate_id === null) return [];
  await lockCertificate(trx, r.certificate_id);
  const c = await getCertificate(trx, r.certificate_id);
  if (!c || refusalOf(c) !== null) return [];
  const owed = (await recordMoney(trx, r, s)).balance;
  const spend = Math.min(c.balance, owed);
  if (spend <= 0) return [];
  const event = await appendToRecord(trx, actor, r, schedule, s, {
    amount: spend,
    method: 'certificate',
    kind: 'payment',
    note: CERTIFICATE_TEXTS.spendNote(c.code),
  });
  await insertCertificateEntry(trx, {
    certificate_id: c.id,
    kind: 'redemption',
    amount: -spend,
    record_id: r.id,
    payment_id: event.payment.id,
    note: null,
    ...recordedBy(actor),
  });
  return [event];
}

/**
 * Gives back up to `amount` of what certificates paid on a booking, each to its own certificate
 * (even one since expired: its expiry writes off what comes back). Returns the events and how much
 * went back, so the rest of a refund follows the studio's usual rule.
 */
export async function returnToCertificates(
  trx: Executor,
  r: RecordRow,
  schedule: RecordSchedule,
  s: Pick<BusinessSettings, 'prepayment' | 'deposit_percent'>,
  amount: number,
): Promise<{ events: MoneyEvent[]; returned: number }> {
  const events: MoneyEvent[] = [];
  let left = amount;
  for (const { certificate_id, spent } of await certificateSpendOfRecord(trx, r.id)) {
    const back = Math.min(left, spent);
    if (back <= 0) continue;
    await lockCertificate(trx, certificate_id);
    const c = (await getCertificate(trx, certificate_id))!;
    const event = await appendToRecord(trx, SYSTEM, r, schedule, s, {
      amount: -back,
      method: 'certificate',
      kind: 'refund',
      note: CERTIFICATE_TEXTS.returnNote(c.code),
    });
    await insertCertificateEntry(trx, {
      certificate_id,
      kind: 'return',
      amount: back,
      record_id: r.id,
      payment_id: event.payment.id,
      note: null,
      recorded_by_kind: 'system',
      recorded_by_user_id: null,
    });
    // A certificate already written off at expiry writes off what came back, too.
    if (c.expired_at !== null || c.voided_at !== null)
      await insertCertificateEntry(trx, {
        certificate_id,
        kind: c.voided_at !== null ? 'void' : 'expiry',
        amount: -back,
        record_id: r.id,
        payment_id: null,
        note: null,
        recorded_by_kind: 'system',
        recorded_by_user_id: null,
      });
    events.push(event);
    left -= back;
  }
  return { events, returned: amount - left };
}

/** The stored code of what was typed; Invalid (400) when it cannot be a code. */
export function parseCode(input: string): string {
  const code = normalizeCertificateCode(input);
  if (code === null) throw new Invalid(CERTIFICATE_MSG.malformed);
  return code;
}

/** The certificate behind a typed code that can pay now, else the refusal (404 unknown, 409 otherwise). */
export async function usableCertificate(db: Executor, input: string): Promise<CertificateWithBalance> {
  const c = await getCertificateByCode(db, parseCode(input));
  const refusal = refusalOf(c);
  if (refusal === CERTIFICATE_MSG.notFound) throw new NotFound(refusal);
  if (refusal !== null) throw new Conflict(refusal);
  return c!;
}

/** The certificate a new booking is paid from: checked under the locks before the booking is written. */
export async function certificateForBooking(trx: Executor, input: string): Promise<number> {
  const ref = await usableCertificate(trx, input);
  await lockCertificate(trx, ref.id);
  return (await usableCertificate(trx, input)).id;
}
