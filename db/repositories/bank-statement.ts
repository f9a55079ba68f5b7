import type { Insertable, Selectable, Updateable } from 'kysely';
import { nowIso, type Executor } from '../database';
import type { BankStatementLinesTable } from '../schema';

export type BankLineRow = Selectable<BankStatementLinesTable>;
type BankLineInsert = Omit<Insertable<BankStatementLinesTable>, 'id' | 'imported_at'>;
type BankLinePatch = Updateable<BankStatementLinesTable>;

/** Stores a statement line once: undefined when its key was stored before (or by a concurrent import). */
export const insertBankLine = (db: Executor, row: BankLineInsert) =>
  db
    .insertInto('bank_statement_lines')
    .values({ ...row, imported_at: nowIso() })
    .onConflict((oc) => oc.column('line_key').doNothing())
    .returningAll()
    .executeTakeFirst();

export const updateBankLine = (db: Executor, id: number, patch: BankLinePatch) =>
  db.updateTable('bank_statement_lines').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/**
 * Resolves a line only while it is unmatched: the conditional update is the claim, so of two staff
 * resolving one line at once the second changes nothing and gets undefined.
 */
export const claimUnmatchedLine = (db: Executor, id: number, patch: BankLinePatch) =>
  db
    .updateTable('bank_statement_lines')
    .set(patch)
    .where('id', '=', id)
    .where('status', '=', 'unmatched')
    .returningAll()
    .executeTakeFirst();

export const getBankLine = (db: Executor, id: number) =>
  db.selectFrom('bank_statement_lines').selectAll().where('id', '=', id).executeTakeFirst();

/** A page of lines in one status, newest booked first, and how many there are. */
export async function listBankLines(
  db: Executor,
  q: { status: BankLineRow['status']; skip: number; limit: number },
): Promise<{ rows: BankLineRow[]; count: number }> {
  const base = db.selectFrom('bank_statement_lines').where('status', '=', q.status);
  const rows = await base
    .selectAll()
    .orderBy('booked_on', 'desc')
    .orderBy('id', 'desc')
    .offset(q.skip)
    .limit(q.limit)
    .execute();
  const { n } = await base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return { rows, count: Number(n) };
}
