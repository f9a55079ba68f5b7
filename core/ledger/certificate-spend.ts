import type { BusinessSettings, RecordSchedule } from '../../contract';
import {
  CERTIFICATE_MSG,
  certificatePays,
  formatCertificateCode,
  normalizeCertificateCode,
  placesKept,
  priceOf,
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
import { Conflict, Invalid, NotFound, type FixedRefusalCode } from '../kernel/errors';
import type { MoneyEvent } from '../kernel/events';
import { appendToRecord, recordMoney } from './ledger';

/*
 * What a certificate is worth to a booking: its status, and the money it pays on a booking or takes
 * back when the booking is cancelled (the booking's money follows its changes in follow.ts, which
 * calls these under the session's lock; the certificate's own lock is taken here). A places
 * certificate pays and takes back places, each valued at the booking's price per person
 * (certificatePays, placesKept); its entries carry both the places and that RSD value.
 */

export const CERTIFICATE_TEXTS = {
  pastExpiry: 'certificatePastExpiry',
  notPending: 'certificateNotPending',
  voidedAlready: 'certificateVoidedAlready',
  amountNotOffered: 'certificateAmountNotOffered',
  telegramOnly: 'certificateTelegramOnly',
  queued: 'Запись в очереди: сертификат оплатит её, когда место освободится',
  cancelled: 'certificateBookingCancelled',
  paidAlready: 'certificatePaidAlready',
  otherCertificate: 'certificateOtherCertificate',
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
export function refusalOf(c: CertificateWithBalance | undefined, now = nowIso()): FixedRefusalCode | null {
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

/** The places of a places certificate's entry (null on an amount certificate's). */
const placesOf = (c: CertificateWithBalance, n: number) => (c.kind === 'places' ? n : null);

/**
 * What is left on a certificate as a write-off entry's amount and places (a void, an expiry): a places
 * certificate's places are written off without an RSD value, which is known only when used.
 */
export const writeOffOf = (c: CertificateWithBalance) =>
  c.kind === 'places' ? { amount: 0, places: -c.balance } : { amount: -c.balance, places: null };

/**
 * Pays a booking from its certificate, up to what the booking still owes (after its price and any
 * discount were fixed), before studio credit: an amount certificate up to its balance, a places
 * certificate a place per person at the booking's price per person. Nothing when it cannot pay any more.
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
  const here = (await certificateSpendOfRecord(trx, r.id)).find((x) => x.certificate_id === c.id);
  const spend = certificatePays(
    { kind: c.kind, left: c.balance },
    {
      price: priceOf(r),
      people: r.people_count,
      owed,
      taken: { amount: here?.spent ?? 0, places: here?.places ?? 0 },
    },
  );
  if (spend.amount <= 0) return [];
  const event = await appendToRecord(trx, actor, r, schedule, s, {
    amount: spend.amount,
    method: 'certificate',
    kind: 'payment',
    note: CERTIFICATE_TEXTS.spendNote(c.code),
    fiscal: { certificate_id: c.id },
  });
  await insertCertificateEntry(trx, {
    certificate_id: c.id,
    kind: 'redemption',
    amount: -spend.amount,
    places: placesOf(c, -spend.places),
    record_id: r.id,
    payment_id: event.payment.id,
    note: null,
    ...recordedBy(actor),
  });
  return [event];
}

/**
 * Gives back up to `amount` of what certificates paid on a booking, each to its own certificate
 * (even one since expired: its expiry writes off what comes back). A places certificate gets back the
 * places the booking no longer needs for what the certificate still pays of it (all of them on a
 * cancel). Returns the events and how much went back, so the rest of a refund follows the studio's
 * usual rule.
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
  for (const { certificate_id, spent, places } of await certificateSpendOfRecord(trx, r.id)) {
    const back = Math.min(left, spent);
    if (back <= 0) continue;
    await lockCertificate(trx, certificate_id);
    const c = (await getCertificate(trx, certificate_id))!;
    const placesBack =
      places - placesKept({ amount: spent, places }, back, { price: priceOf(r), people: r.people_count });
    const event = await appendToRecord(trx, SYSTEM, r, schedule, s, {
      amount: -back,
      method: 'certificate',
      kind: 'refund',
      note: CERTIFICATE_TEXTS.returnNote(c.code),
      fiscal: { certificate_id },
    });
    await insertCertificateEntry(trx, {
      certificate_id,
      kind: 'return',
      amount: back,
      places: placesOf(c, placesBack),
      record_id: r.id,
      payment_id: event.payment.id,
      note: null,
      recorded_by_kind: 'system',
      recorded_by_user_id: null,
    });
    // A certificate already written off at expiry writes off what came back, too.
    if ((c.expired_at !== null || c.voided_at !== null) && (c.kind !== 'places' || placesBack > 0))
      await insertCertificateEntry(trx, {
        certificate_id,
        kind: c.voided_at !== null ? 'void' : 'expiry',
        ...(c.kind === 'places' ? { amount: 0, places: -placesBack } : { amount: -back, places: null }),
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
