import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';
import { nowIso, type Executor } from '../database';
import type { CertificateEntriesTable, CertificatesTable, DB } from '../schema';

export type CertificateRow = Selectable<CertificatesTable>;
export type CertificateEntryRow = Selectable<CertificateEntriesTable>;
/** What happens to a certificate after it is made: none of it has happened when it is inserted (unless given). */
const LATER = {
  recipient_telegram_id: null,
  paid_at: null,
  pay_method: null,
  payment_id: null,
  voided_at: null,
  void_reason: null,
  reminded_at: null,
  expired_at: null,
  invoice_token: null,
} as const;
type Later = keyof typeof LATER;
export type CertificateInsert = Omit<Insertable<CertificatesTable>, 'id' | 'created_at' | Later> &
  Partial<Pick<Insertable<CertificatesTable>, Later>>;
export type CertificateEntryInsert = Omit<Insertable<CertificateEntriesTable>, 'id' | 'at'>;

/** A certificate with its balance: the sum of its entries in its unit (RSD, or places for a places certificate). */
export type CertificateWithBalance = CertificateRow & { balance: number };

// Built, not written, so a platform studio's statement names its schema here too.
const balanceOf = (eb: ExpressionBuilder<DB, 'certificates'>) =>
  eb
    .selectFrom('certificate_entries as e')
    .select(
      sql<
        string | number | null
      >`coalesce(sum(case when certificates.kind = 'places' then e.places else e.amount end), 0)`.as('b'),
    )
    .whereRef('e.certificate_id', '=', 'certificates.id');

const withBalance = (db: Executor) =>
  db
    .selectFrom('certificates')
    .selectAll()
    .select((eb) => balanceOf(eb).as('balance'));
const numeric = <T extends { balance: string | number | null }>(r: T) => ({ ...r, balance: Number(r.balance ?? 0) });

export const insertCertificate = (db: Executor, row: CertificateInsert) =>
  db
    .insertInto('certificates')
    .values({ ...LATER, ...row, created_at: nowIso() })
    .returningAll()
    .executeTakeFirstOrThrow();

export const codeTaken = async (db: Executor, code: string) =>
  (await db.selectFrom('certificates').select('id').where('code', '=', code).executeTakeFirst()) !== undefined;

export async function getCertificate(db: Executor, id: number): Promise<CertificateWithBalance | undefined> {
  const r = await withBalance(db).where('id', '=', id).executeTakeFirst();
  return r && numeric(r);
}

export async function getCertificateByInvoiceToken(
  db: Executor,
  token: string,
): Promise<CertificateWithBalance | undefined> {
  const r = await withBalance(db).where('invoice_token', '=', token).executeTakeFirst();
  return r && numeric(r);
}

export async function getCertificateByCode(db: Executor, code: string): Promise<CertificateWithBalance | undefined> {
  const r = await withBalance(db).where('code', '=', code).executeTakeFirst();
  return r && numeric(r);
}

/** Appends one row to a certificate's ledger (never updated). */
export const insertCertificateEntry = (db: Executor, row: CertificateEntryInsert) =>
  db
    .insertInto('certificate_entries')
    .values({ ...row, at: nowIso() })
    .returningAll()
    .executeTakeFirstOrThrow();

export const listCertificateEntries = (db: Executor, certificateId: number) =>
  db.selectFrom('certificate_entries').selectAll().where('certificate_id', '=', certificateId).orderBy('id').execute();

/**
 * What a booking took from (and gave back to) each certificate, net: RSD and places. Only redemptions
 * and returns: a write-off of what came back to a lapsed certificate is not the booking's.
 */
export const certificateSpendOfRecord = (db: Executor, recordId: number) =>
  db
    .selectFrom('certificate_entries')
    .select([
      'certificate_id',
      sql<string | number>`-sum(amount)`.as('spent'),
      sql<string | number | null>`-sum(places)`.as('places'),
    ])
    .where('record_id', '=', recordId)
    .where('kind', 'in', ['redemption', 'return'])
    .groupBy('certificate_id')
    .orderBy('certificate_id')
    .execute()
    .then((rows) =>
      rows.map((r) => ({ certificate_id: r.certificate_id, spent: Number(r.spent), places: Number(r.places ?? 0) })),
    );

export interface CertificateFilter {
  q?: string;
  /** The code's symbols when q could be (part of) a code. */
  codePart?: string | null;
  status?: 'pending' | 'active' | 'used' | 'expired' | 'voided';
  now: string;
  skip: number;
  limit: number;
}

/** Certificates, newest first, by part of the code or a name, and by status. */
export async function listCertificates(
  db: Executor,
  f: CertificateFilter,
): Promise<{ rows: CertificateWithBalance[]; count: number }> {
  let q = withBalance(db);
  if (f.q) {
    const like = `%${f.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(recipient_name)`, 'like', sql`${like} escape '\\'`),
        eb(sql`lower(buyer_name)`, 'like', sql`${like} escape '\\'`),
        ...(f.codePart ? [eb('code', 'like', `%${f.codePart}%`)] : []),
      ]),
    );
  }
  if (f.status === 'voided') q = q.where('voided_at', 'is not', null);
  else if (f.status) {
    q = q.where('voided_at', 'is', null);
    if (f.status === 'pending') q = q.where('paid_at', 'is', null);
    else {
      q = q.where('paid_at', 'is not', null);
      if (f.status === 'expired') q = q.where('expires_at', '<=', f.now);
      else {
        q = q.where('expires_at', '>', f.now);
        q = q.where((eb) => eb(balanceOf(eb), f.status === 'active' ? '>' : '<=', 0));
      }
    }
  }
  const all = await q.orderBy('id', 'desc').execute();
  return { rows: all.slice(f.skip, f.skip + f.limit).map(numeric), count: all.length };
}

/** A customer's certificates: bought by them or opened from the link. */
export const listCertificatesOf = async (db: Executor, telegramId: number) =>
  (
    await withBalance(db)
      .where((eb) => eb.or([eb('buyer_telegram_id', '=', telegramId), eb('recipient_telegram_id', '=', telegramId)]))
      .orderBy('id', 'desc')
      .execute()
  ).map(numeric);

export const updateCertificate = (
  db: Executor,
  id: number,
  set: Partial<
    Pick<
      CertificateRow,
      | 'paid_at'
      | 'pay_method'
      | 'payment_id'
      | 'recipient_telegram_id'
      | 'voided_at'
      | 'void_reason'
      | 'reminded_at'
      | 'expired_at'
    >
  >,
) => db.updateTable('certificates').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/** Paid certificates past their date whose balance was not yet written off. */
export const listExpiredUnsettled = (db: Executor, now: string) =>
  db
    .selectFrom('certificates')
    .select('id')
    .where('paid_at', 'is not', null)
    .where('voided_at', 'is', null)
    .where('expired_at', 'is', null)
    .where('expires_at', '<=', now)
    .orderBy('id')
    .execute();

/** Linked, usable certificates expiring in (now, until] whose recipient was not reminded yet. */
export const listDueReminders = (db: Executor, now: string, until: string) =>
  db
    .selectFrom('certificates')
    .select('id')
    .where('paid_at', 'is not', null)
    .where('voided_at', 'is', null)
    .where('recipient_telegram_id', 'is not', null)
    .where('reminded_at', 'is', null)
    .where('expires_at', '>', now)
    .where('expires_at', '<=', until)
    .orderBy('id')
    .execute();

/** The booking that a certificate pays (when it is or becomes ACTIVE). */
export const setRecordCertificate = (db: Executor, recordId: number, certificateId: number | null) =>
  db
    .updateTable('records')
    .set({ certificate_id: certificateId })
    .where('id', '=', recordId)
    .returningAll()
    .executeTakeFirstOrThrow();

/** The certificates' ledger totals of a time range, by entry kind: RSD, and places (places certificates). */
export async function certificateSumsBetween(db: Executor, range: { from?: string; to?: string }) {
  let q = db
    .selectFrom('certificate_entries')
    .select([
      'kind',
      sql<string | number>`sum(amount)`.as('total'),
      sql<string | number | null>`sum(places)`.as('places'),
    ])
    .groupBy('kind');
  if (range.from) q = q.where('at', '>=', range.from);
  if (range.to) q = q.where('at', '<', range.to);
  const rows = await q.execute();
  return {
    amount: Object.fromEntries(rows.map((r) => [r.kind, Number(r.total)])) as Record<string, number>,
    places: Object.fromEntries(rows.map((r) => [r.kind, Number(r.places ?? 0)])) as Record<string, number>,
  };
}

/**
 * What usable certificates hold now, together (the studio owes it in classes): RSD on amount
 * certificates, places on places certificates (their value is known only when used).
 */
export async function certificatesOutstanding(db: Executor, now: string): Promise<{ amount: number; places: number }> {
  const rows = await db
    .selectFrom('certificate_entries as e')
    .innerJoin('certificates as c', 'c.id', 'e.certificate_id')
    .select([
      'c.kind',
      sql<string | number | null>`sum(e.amount)`.as('total'),
      sql<string | number | null>`sum(e.places)`.as('places'),
    ])
    .where('c.voided_at', 'is', null)
    .where('c.expires_at', '>', now)
    .groupBy('c.kind')
    .execute();
  return {
    amount: Number(rows.find((r) => r.kind === 'amount')?.total ?? 0),
    places: Number(rows.find((r) => r.kind === 'places')?.places ?? 0),
  };
}

/**
 * Serialises changes of one certificate's balance (PostgreSQL: its row FOR UPDATE, taken after the
 * customer and session locks and before a customer's credit lock; SQLite's write transaction
 * serialises already).
 */
export async function lockCertificate(db: Executor, id: number): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.selectFrom('certificates').select('id').where('id', '=', id).forUpdate().execute();
}

/** Erasure: a customer's certificates keep amounts and dates, never who bought, received or was greeted. */
export async function forgetCertificatesOf(db: Executor, telegramId: number): Promise<void> {
  await db
    .updateTable('certificates')
    .set({ buyer_telegram_id: null, buyer_name: null, recipient_name: null, greeting: null })
    .where('buyer_telegram_id', '=', telegramId)
    .execute();
  await db
    .updateTable('certificates')
    .set({ recipient_telegram_id: null, recipient_name: null, greeting: null })
    .where('recipient_telegram_id', '=', telegramId)
    .execute();
  await db.deleteFrom('rate_limits').where('key', '=', `certificate-code|tg:${telegramId}`).execute();
}
