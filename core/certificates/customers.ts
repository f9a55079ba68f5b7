import {
  CERTIFICATE_MSG,
  certificatePagePath,
  certificatePays,
  formatCertificateCode,
  type CertificateCheck,
  type CertificateCheckRequest,
  type CertificatePublic,
  type MyCertificate,
  type RecordLedger,
} from '../../contract';
import { nowIso, type Database, type Executor } from '../../db/database';
import {
  getCertificate,
  listCertificatesOf,
  setRecordCertificate,
  updateCertificate,
} from '../../db/repositories/certificates';
import { listPaymentsOfRecord } from '../../db/repositories/payments';
import { ledgerAllowed } from '../booking/staff-allowed';
import { assertCan, customerActor, type Actor } from '../kernel/actor';
import { Conflict, NotFound } from '../kernel/errors';
import { onRecord } from '../booking/command';
import { promoCodeName } from '../../db/repositories/promo-codes';
import { toPaymentPublic } from '../ledger/payment-public';
import {
  CERTIFICATE_TEXTS,
  certificateForBooking,
  certificateStatus,
  parseCode,
  refusalOf,
  spendCertificate,
  usableCertificate,
} from '../ledger/certificate-spend';
import { countCertificateAttempt, typedBy } from '../ledger/certificate-attempts';
import { recordMoney } from '../ledger/ledger';
import { moneyOf } from '../ledger/price';
import { ledgerWithReceipts } from '../fiscal/staff';
import { quotePrice } from '../promo/promo-codes';
import { byCode, certificateAudit, onCertificate, toCertificatePublic } from './certificate-rows';

/*
 * What customers do with a code: check it, see theirs, open its link, share it, and staff paying a
 * booking with it. Each command that takes a typed code counts it against the guessing limit first,
 * outside its transaction, so a refused code still counts (`address`: where the request came from).
 */

/**
 * What a customer learns of a code before booking with it; with a session (and party, promo code),
 * also what it would pay of that booking, by the rule it is spent with.
 */
export async function checkCertificate(
  database: Database,
  actor: Actor,
  input: CertificateCheckRequest,
  address: string | null,
): Promise<CertificateCheck> {
  await countCertificateAttempt(database, typedBy(actor, address));
  const db = database.db;
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
export async function certificateCard(database: Database, code: string, address: string | null) {
  await countCertificateAttempt(database, { address });
  const c = await byCode(database.db, code);
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
  await countCertificateAttempt(database, { telegramId });
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
  address: string | null,
): Promise<RecordLedger> {
  await countCertificateAttempt(database, typedBy(actor, address));
  assertCan(actor, 'desk.pay');
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
    const money = moneyOf(record, rows, settings);
    return {
      value: {
        money,
        ...(await ledgerWithReceipts(trx, record.id, rows.map(toPaymentPublic))),
        promo_code: await promoCodeName(trx, record.promo_code_id),
        allowed: ledgerAllowed(actor, money),
      },
      events,
    };
  });
}

/** A customer's own certificate to share: only one paid and still usable; with the code its link carries. */
export async function certificateToShare(db: Executor, telegramId: number, id: number) {
  const cert = await myCertificate(db, telegramId, id);
  if (cert.status !== 'active' || !cert.code || !cert.url) throw new Conflict('shareNotActive');
  return { ...cert, code: cert.code, startCode: cert.code.replaceAll('-', '') };
}
