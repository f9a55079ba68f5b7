import { randomBytes } from 'node:crypto';
import {
  CERTIFICATE_ALPHABET,
  CERTIFICATE_CODE_LENGTH,
  CERTIFICATE_MONTHS,
  CERTIFICATE_MSG,
  CertificateQuery,
  certificatePagePath,
  certificatePays,
  formatCertificateCode,
  type CertificateCheck,
  type CertificateCheckRequest,
  type CertificateEntry,
  type CertificateIssue,
  type CertificatePayMethod,
  type CertificatePublic,
  type CertificateView,
  type MyCertificate,
  type RecordLedger,
} from '../../contract';
import { nowIso, type Database, type Executor } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import {
  codeTaken,
  getCertificate,
  getCertificateByCode,
  insertCertificate,
  insertCertificateEntry,
  listCertificateEntries,
  listCertificates,
  listCertificatesOf,
  listDueReminders,
  listExpiredUnsettled,
  lockCertificate,
  setRecordCertificate,
  updateCertificate,
  type CertificateEntryRow,
  type CertificateWithBalance,
} from '../../db/repositories/certificates';
import { findPaymentByCharge, listPaymentsOfRecord } from '../../db/repositories/payments';
import { SYSTEM, assertStaff, customerActor, type Actor } from '../kernel/actor';
import { Conflict, Forbidden, Invalid, NotFound } from '../kernel/errors';
import type { AuditValues } from '../notify/audit';
import type { DomainEvent } from '../notify/events';
import { publish } from '../notify/publish';
import { onRecord } from '../booking/command';
import { getBusinessSettings } from '../staff/business-settings';
import { promoCodeName } from '../../db/repositories/promo-codes';
import { toPaymentPublic } from './desk';
import {
  CERTIFICATE_TEXTS,
  certificateForBooking,
  certificateStatus,
  parseCode,
  recordedBy,
  refusalOf,
  spendCertificate,
  usableCertificate,
  writeOffOf,
} from './certificates-spend';
import { appendCertificateSale, recordMoney } from './ledger';
import { moneyOf } from './price';
import { quotePrice } from './promo-codes';

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

const toEntry = (e: CertificateEntryRow): CertificateEntry => ({
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

async function viewOf(db: Executor, c: CertificateWithBalance): Promise<CertificateView> {
  return { ...toCertificatePublic(c), entries: (await listCertificateEntries(db, c.id)).map(toEntry) };
}

async function byCode(db: Executor, input: string): Promise<CertificateWithBalance> {
  const c = await getCertificateByCode(db, parseCode(input));
  if (!c) throw new NotFound(CERTIFICATE_MSG.notFound);
  return c;
}

const certificateAudit = (
  actor: Actor,
  c: { id: number },
  action: 'created' | 'updated',
  after: AuditValues,
): DomainEvent => ({
  type: action === 'created' ? 'entity.created' : 'entity.updated',
  actor,
  entity: 'certificate',
  entity_id: c.id,
  after,
});

/** A code no certificate has (a collision among 2^60 is a formality, but the column is unique). */
async function freshCode(trx: Executor): Promise<string> {
  for (;;) {
    const code = newCertificateCode();
    if (!(await codeTaken(trx, code))) return code;
  }
}

const inMonths = (months: number, from = new Date()) => {
  const d = new Date(from);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString();
};

/** The sale: the studio's ledger row, the certificate's first entry, and the buyer's message when from Telegram. */
async function recordSale(
  trx: Executor,
  actor: Actor,
  c: CertificateWithBalance,
  method: CertificatePayMethod,
  charge?: { telegram_payment_charge_id: string; provider_payment_charge_id: string },
): Promise<DomainEvent[]> {
  const payment = await appendCertificateSale(trx, actor, {
    amount: c.amount,
    method,
    telegram_id: c.buyer_telegram_id,
    note: CERTIFICATE_TEXTS.saleNote(c.code),
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
  const events: DomainEvent[] = [
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
  assertStaff(actor);
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
      recipient_telegram_id: null,
      expires_at: expires,
      created_by_user_id: actor.user_id,
      paid_at: null,
      pay_method: null,
      payment_id: null,
      voided_at: null,
      void_reason: null,
      reminded_at: null,
      expired_at: null,
    });
    const c = { ...row, balance: 0 };
    const events: DomainEvent[] = [
      certificateAudit(actor, c, 'created', {
        amount: c.amount,
        places: c.places,
        expires_at: expires,
        note: input.note ?? null,
      }),
      ...(await recordSale(trx, actor, c, input.method)),
    ];
    await publish(trx, events);
    return viewOf(trx, (await getCertificate(trx, c.id))!);
  });
}

/** Staff: the list, by part of the code or a name, and by status. */
export async function listCertificatesView(db: Executor, actor: Actor, query: CertificateQuery) {
  assertStaff(actor);
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
  assertStaff(actor);
  return viewOf(db, await byCode(db, code));
}

/** What a void or an expiry wrote off, for the audit log: RSD, or a places certificate's places. */
const writtenOff = (c: CertificateWithBalance) =>
  c.kind === 'places' ? { written_off_places: c.balance } : { written_off: c.balance };

/** Runs `fn` on one certificate under its lock, re-read inside; publishes what it returns. */
async function onCertificate<T>(
  database: Database,
  id: number,
  fn: (trx: Executor, c: CertificateWithBalance) => Promise<{ value: T; events: DomainEvent[] }>,
): Promise<T> {
  return withWriteTransaction(database, async (trx) => {
    await lockCertificate(trx, id);
    const { value, events } = await fn(trx, (await getCertificate(trx, id))!);
    await publish(trx, events);
    return value;
  });
}

/** The owner voids a certificate: what is left is written off (an entry), with the reason. */
export async function voidCertificate(
  database: Database,
  actor: Actor,
  code: string,
  reason: string,
): Promise<CertificateView> {
  assertStaff(actor, 'owner');
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
      value: await viewOf(trx, (await getCertificate(trx, c.id))!),
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
  assertStaff(actor);
  const ref = await byCode(database.db, code);
  return onCertificate(database, ref.id, async (trx, c) => {
    if (c.paid_at !== null || c.voided_at !== null) throw new Conflict(CERTIFICATE_TEXTS.notPending);
    const events = await recordSale(trx, actor, c, method);
    return { value: await viewOf(trx, (await getCertificate(trx, c.id))!), events };
  });
}

/* ---------- bought in Telegram ---------- */

/** The amounts the mini-app offers: the studio's list. */
export const certificateAmounts = async (db: Executor): Promise<number[]> =>
  (await getBusinessSettings(db)).certificate_amounts;

/**
 * A Telegram customer starts a purchase: a certificate waiting for its payment (usable once paid).
 * Without Telegram payments staff are told, and confirm it when the money arrives.
 */
export async function startPurchase(
  database: Database,
  actor: Actor,
  input: { amount: number; recipient_name?: string | null; greeting?: string | null },
  buyer: { name: string | null; telegramInvoices: boolean; amounts: readonly number[] },
): Promise<CertificateWithBalance> {
  if (actor.kind !== 'customer') throw new Forbidden(CERTIFICATE_TEXTS.telegramOnly);
  if (!buyer.amounts.includes(input.amount)) throw new Invalid(CERTIFICATE_TEXTS.amountNotOffered);
  return withWriteTransaction(database, async (trx) => {
    const row = await insertCertificate(trx, {
      code: await freshCode(trx),
      kind: 'amount',
      amount: input.amount,
      places: null,
      buyer_name: buyer.name,
      buyer_telegram_id: actor.telegram_id,
      recipient_name: input.recipient_name || null,
      greeting: input.greeting || null,
      recipient_telegram_id: null,
      expires_at: inMonths(CERTIFICATE_MONTHS),
      created_by_user_id: null,
      paid_at: null,
      pay_method: null,
      payment_id: null,
      voided_at: null,
      void_reason: null,
      reminded_at: null,
      expired_at: null,
    });
    const c = { ...row, balance: 0 };
    const events: DomainEvent[] = [certificateAudit(actor, c, 'created', { amount: c.amount, requested: true })];
    if (!buyer.telegramInvoices)
      events.push({
        type: 'staff.alert',
        notification: {
          kind: 'staff.certificate',
          payload: {
            event: 'requested',
            code: formatCertificateCode(c.code),
            amount: c.amount,
            buyer_name: buyer.name,
          },
        },
      });
    await publish(trx, events);
    return c;
  });
}

/** Telegram's last check before charging for a certificate: null to accept, else the reason. */
export async function certificatePurchaseRefusal(
  db: Executor,
  id: number,
  fromId: number,
  amount: number,
): Promise<string | null> {
  const c = await getCertificate(db, id);
  if (!c || c.buyer_telegram_id === null || Number(c.buyer_telegram_id) !== fromId) return CERTIFICATE_MSG.notFound;
  if (c.voided_at !== null) return CERTIFICATE_MSG.voided;
  if (c.paid_at !== null) return CERTIFICATE_TEXTS.notPending;
  if (amount !== c.amount) return 'Сумма сертификата изменилась. Оформите покупку заново';
  return null;
}

/**
 * A Telegram payment for a certificate, recorded once per charge id (a replayed or concurrent
 * delivery finds the first and changes nothing). Money for a certificate no longer waiting (voided,
 * or paid by another charge) is kept in the ledger and staff are told to return it.
 */
export async function recordCertificatePayment(
  database: Database,
  id: number,
  p: { from_id: number; amount: number; telegram_payment_charge_id: string; provider_payment_charge_id: string },
): Promise<boolean> {
  if (!(await getCertificate(database.db, id))) throw new Error(`successful_payment for an unknown certificate: ${id}`);
  const actor = customerActor(p.from_id);
  return onCertificate(database, id, async (trx, c) => {
    // The charge id is unique in the ledger: under the lock, a second delivery sees the first.
    if (await findPaymentByCharge(trx, p.telegram_payment_charge_id)) return { value: false, events: [] };
    const charge = {
      telegram_payment_charge_id: p.telegram_payment_charge_id,
      provider_payment_charge_id: p.provider_payment_charge_id,
    };
    if (c.paid_at === null && c.voided_at === null && p.amount === c.amount)
      return { value: true, events: await recordSale(trx, actor, c, 'telegram', charge) };
    // Not wanted any more: the money is the studio's to give back.
    const payment = await appendCertificateSale(trx, actor, {
      amount: p.amount,
      method: 'telegram',
      telegram_id: p.from_id,
      note: `${CERTIFICATE_TEXTS.saleNote(c.code)}: не ждал оплаты, вернуть покупателю`,
      ...charge,
    });
    return {
      value: true,
      events: [
        certificateAudit(actor, c, 'updated', { late_payment: p.amount, payment_id: payment.id }),
        {
          type: 'staff.alert',
          notification: {
            kind: 'staff.certificate',
            payload: {
              event: 'late',
              code: formatCertificateCode(c.code),
              amount: p.amount,
              buyer_telegram_id: p.from_id,
              buyer_name: c.buyer_name,
            },
          },
        },
      ],
    };
  });
}

/* ---------- customers ---------- */

/**
 * What a customer learns of a code before booking with it; with a session (and party, promo code),
 * also what it would pay of that booking, by the rule it is spent with.
 */
export async function checkCertificate(
  db: Executor,
  actor: Actor,
  input: CertificateCheckRequest,
): Promise<CertificateCheck> {
  const c = await usableCertificate(db, input.code);
  let pays: { amount: number; places: number } | null = null;
  if (input.schedule_id !== undefined) {
    const people = input.people_count ?? 1;
    const quote = await quotePrice(db, actor, {
      schedule_id: input.schedule_id,
      people_count: people,
      promo_code: input.promo_code,
    });
    pays = certificatePays({ kind: c.kind, left: c.balance }, { price: quote.total, people, owed: quote.total });
  }
  return {
    code: formatCertificateCode(c.code),
    kind: c.kind,
    balance: c.balance,
    places_left: c.kind === 'places' ? c.balance : null,
    expires_at: c.expires_at,
    pays: pays && pays.amount,
    places_used: pays && pays.places,
  };
}

/** A customer's certificates: bought (the code once paid) or opened from the link. */
export async function myCertificates(db: Executor, telegramId: number): Promise<{ data: MyCertificate[] }> {
  const now = nowIso();
  return {
    data: (await listCertificatesOf(db, telegramId)).map((c) => {
      const paid = c.paid_at !== null;
      return {
        id: c.id,
        code: paid ? formatCertificateCode(c.code) : null,
        kind: c.kind,
        amount: c.amount,
        places: c.places,
        balance: c.balance,
        status: certificateStatus(c, now),
        recipient_name: c.recipient_name,
        expires_at: c.expires_at,
        url: paid ? certificatePagePath(c.code) : null,
      };
    }),
  };
}

/** A customer's own certificate (bought by them or opened from its link); NotFound otherwise. */
export async function myCertificate(db: Executor, telegramId: number, id: number): Promise<MyCertificate> {
  const c = (await myCertificates(db, telegramId)).data.find((x) => x.id === id);
  if (!c) throw new NotFound(CERTIFICATE_MSG.notFound);
  return c;
}

/** What the card page shows; a purchase not paid yet has no card. */
export async function certificateCard(db: Executor, code: string) {
  const c = await byCode(db, code);
  if (c.paid_at === null) throw new NotFound(CERTIFICATE_MSG.notFound);
  return {
    code: c.code,
    kind: c.kind,
    amount: c.amount,
    places: c.places,
    balance: c.balance,
    status: certificateStatus(c),
    recipient_name: c.recipient_name,
    greeting: c.greeting,
    expires_at: c.expires_at,
  };
}

/**
 * The bot's deep link: the certificate becomes the opener's (told before it expires) unless the buyer
 * opens their own, or someone opened it first. Returns it with its status for the reply.
 */
export async function openCertificate(
  database: Database,
  telegramId: number,
  input: string,
): Promise<CertificatePublic> {
  const ref = await byCode(database.db, input);
  return onCertificate(database, ref.id, async (trx, c) => {
    if (c.paid_at === null) throw new Conflict(CERTIFICATE_MSG.pending);
    const mine = c.buyer_telegram_id !== null && Number(c.buyer_telegram_id) === telegramId;
    if (mine || c.recipient_telegram_id !== null || c.voided_at !== null)
      return { value: toCertificatePublic(c), events: [] };
    const linked = await updateCertificate(trx, c.id, { recipient_telegram_id: telegramId });
    return {
      value: toCertificatePublic({ ...linked, balance: c.balance }),
      events: [certificateAudit(customerActor(telegramId), c, 'updated', { linked: true })],
    };
  });
}

/** Staff pay an existing booking from a certificate (now if ACTIVE, else once it becomes ACTIVE). */
export async function redeemOnRecord(
  database: Database,
  actor: Actor,
  recordId: number,
  input: string,
): Promise<RecordLedger> {
  assertStaff(actor);
  const code = parseCode(input);
  return onRecord(database, actor, recordId, async (c) => {
    const { trx, settings } = c;
    if (c.record.state === 'CANCELLED') throw new Conflict(CERTIFICATE_TEXTS.cancelled);
    const certificateId = await certificateForBooking(trx, code);
    if (c.record.certificate_id !== null && c.record.certificate_id !== certificateId) {
      const other = await getCertificate(trx, c.record.certificate_id);
      if (other && refusalOf(other) === null) throw new Conflict(CERTIFICATE_TEXTS.otherCertificate);
    }
    if (c.record.state === 'ACTIVE' && (await recordMoney(trx, c.record, settings)).balance <= 0)
      throw new Conflict(CERTIFICATE_TEXTS.paidAlready);
    const record = await setRecordCertificate(trx, c.record.id, certificateId);
    const events = record.state === 'ACTIVE' ? await spendCertificate(trx, actor, record, c.schedule, settings) : [];
    const rows = await listPaymentsOfRecord(trx, record.id);
    return {
      value: {
        money: moneyOf(record, rows, settings),
        payments: rows.map(toPaymentPublic),
        promo_code: await promoCodeName(trx, record.promo_code_id),
      },
      events,
    };
  });
}

/* ---------- expiry ---------- */

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
      const events: DomainEvent[] = [certificateAudit(SYSTEM, c, 'updated', { expired: true, ...writtenOff(c) })];
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
