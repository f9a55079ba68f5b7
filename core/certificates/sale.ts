import {
  CERTIFICATE_MONTHS,
  CertificateQuery,
  certificatePagePath,
  formatCertificateCode,
  type CertificateIssue,
  type CertificatePayMethod,
  type CertificateView,
} from '../../contract';
import { nowIso, type Database, type Executor } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import {
  getCertificate,
  insertCertificate,
  insertCertificateEntry,
  listCertificates,
  updateCertificate,
  type CertificateWithBalance,
} from '../../db/repositories/certificates';
import { assertCan, type Actor } from '../kernel/actor';
import { Conflict, Invalid } from '../kernel/errors';
import { publish, type Published } from '../notify/publish';
import { CERTIFICATE_TEXTS, recordedBy, writeOffOf } from '../ledger/certificate-spend';
import { appendCertificateSale } from '../ledger/ledger';
import {
  certificateAudit,
  freshCode,
  inMonths,
  onCertificate,
  toCertificatePublic,
  viewOf,
  byCode,
  writtenOff,
} from './certificate-rows';

/* Certificates sold at the studio (issued, confirmed, voided by staff) and the sale every purchase ends with. */

/** The sale: the studio's ledger row, the certificate's first entry, and the buyer's message when from Telegram. */
export async function recordSale(
  trx: Executor,
  actor: Actor,
  c: CertificateWithBalance,
  method: CertificatePayMethod,
  charge?: { telegram_payment_charge_id: string; provider_payment_charge_id: string },
): Promise<Published[]> {
  const payment = await appendCertificateSale(trx, actor, {
    amount: c.amount,
    method,
    telegram_id: c.buyer_telegram_id,
    note: CERTIFICATE_TEXTS.saleNote(c.code),
    certificate_id: c.id,
    ...charge,
  });
  await insertCertificateEntry(trx, {
    certificate_id: c.id,
    kind: 'sale',
    amount: c.amount,
    places: c.places,
    record_id: null,
    payment_id: payment.id,
    note: null,
    ...recordedBy(actor),
  });
  await updateCertificate(trx, c.id, { paid_at: payment.at, pay_method: method, payment_id: payment.id });
  const events: Published[] = [
    certificateAudit(actor, c, 'updated', { paid: c.amount, method, payment_id: payment.id }),
  ];
  if (c.buyer_telegram_id !== null)
    events.push({
      type: 'message',
      chat_id: Number(c.buyer_telegram_id),
      notification: { kind: 'certificate.ready', payload: readyPayload(c) },
      dedupe_key: `certificate-ready:${c.id}`,
    });
  return events;
}

/** What the buyer's message shows: the amount, or the places (a places certificate's amount is its price). */
export const readyPayload = (c: CertificateWithBalance) => ({
  certificate_id: c.id,
  code: formatCertificateCode(c.code),
  amount: c.amount,
  places: c.places,
  buyer_telegram_id: c.buyer_telegram_id === null ? null : Number(c.buyer_telegram_id),
  recipient_name: c.recipient_name,
  greeting: c.greeting,
  expires_at: c.expires_at,
  url: certificatePagePath(c.code),
});

/**
 * Staff issue a certificate sold at the studio: code, expiry (12 months unless chosen), the sale in the
 * ledger (an amount certificate's nominal, or what the buyer paid for a places certificate).
 */
export async function issueCertificate(
  database: Database,
  actor: Actor,
  input: CertificateIssue,
): Promise<CertificateView> {
  assertCan(actor, 'certificates.manage');
  const expires = input.expires_at ? new Date(input.expires_at).toISOString() : inMonths(CERTIFICATE_MONTHS);
  if (expires <= nowIso()) throw new Invalid(CERTIFICATE_TEXTS.pastExpiry);
  return withWriteTransaction(database, async (trx) => {
    const places = input.places ?? null;
    const row = await insertCertificate(trx, {
      code: await freshCode(trx),
      kind: places === null ? 'amount' : 'places',
      // The contract lets exactly one through: a nominal, or places with what was paid for them.
      amount: places === null ? input.amount! : input.price_paid!,
      places,
      buyer_name: input.buyer_name || null,
      buyer_telegram_id: input.buyer_telegram_id ?? null,
      recipient_name: input.recipient_name || null,
      greeting: input.greeting || null,
      expires_at: expires,
      created_by_user_id: actor.user_id,
    });
    const c = { ...row, balance: 0 };
    const events: Published[] = [
      certificateAudit(actor, c, 'created', {
        amount: c.amount,
        places: c.places,
        expires_at: expires,
        note: input.note ?? null,
      }),
      ...(await recordSale(trx, actor, c, input.method)),
    ];
    await publish(trx, events);
    return viewOf(trx, actor, (await getCertificate(trx, c.id))!);
  });
}

/** Staff: the list, by part of the code or a name, and by status. */
export async function listCertificatesView(db: Executor, actor: Actor, query: CertificateQuery) {
  assertCan(actor, 'certificates.manage');
  const f = CertificateQuery.parse(query);
  const now = nowIso();
  const codePart = f.q ? f.q.replace(/[\s-]/g, '').toUpperCase() : null;
  const { rows, count } = await listCertificates(db, {
    q: f.q || undefined,
    codePart: codePart && /^[A-Z0-9]+$/.test(codePart) ? codePart : null,
    status: f.status,
    now,
    skip: f.skip,
    limit: f.limit,
  });
  return { data: rows.map((c) => toCertificatePublic(c, now)), count };
}

export async function viewCertificate(db: Executor, actor: Actor, code: string): Promise<CertificateView> {
  assertCan(actor, 'certificates.manage');
  return viewOf(db, actor, await byCode(db, code));
}

/** The owner voids a certificate: what is left is written off (an entry), with the reason. */
export async function voidCertificate(
  database: Database,
  actor: Actor,
  code: string,
  reason: string,
): Promise<CertificateView> {
  assertCan(actor, 'certificates.void');
  const ref = await byCode(database.db, code);
  return onCertificate(database, ref.id, async (trx, c) => {
    if (c.voided_at !== null) throw new Conflict(CERTIFICATE_TEXTS.voidedAlready);
    if (c.balance !== 0)
      await insertCertificateEntry(trx, {
        certificate_id: c.id,
        kind: 'void',
        ...writeOffOf(c),
        record_id: null,
        payment_id: null,
        note: reason,
        ...recordedBy(actor),
      });
    await updateCertificate(trx, c.id, { voided_at: nowIso(), void_reason: reason });
    return {
      value: await viewOf(trx, actor, (await getCertificate(trx, c.id))!),
      events: [certificateAudit(actor, c, 'updated', { voided: true, ...writtenOff(c), reason })],
    };
  });
}

/** Staff confirm a purchase request that was paid at the studio or by transfer. */
export async function confirmPurchase(
  database: Database,
  actor: Actor,
  code: string,
  method: CertificatePayMethod,
): Promise<CertificateView> {
  assertCan(actor, 'certificates.manage');
  const ref = await byCode(database.db, code);
  return onCertificate(database, ref.id, async (trx, c) => {
    if (c.paid_at !== null || c.voided_at !== null) throw new Conflict(CERTIFICATE_TEXTS.notPending);
    const events = await recordSale(trx, actor, c, method);
    return { value: await viewOf(trx, actor, (await getCertificate(trx, c.id))!), events };
  });
}
