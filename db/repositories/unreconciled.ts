import type { Selectable } from 'kysely';
import type { Executor } from '../database';
import type { UnreconciledMoneyTable } from '../schema';

export type UnreconciledRow = Selectable<UnreconciledMoneyTable>;

/** Keeps a finding once by its key; the row when it is new, undefined when it was found before. */
export const insertFinding = (
  db: Executor,
  f: Pick<UnreconciledRow, 'finding_key' | 'kind' | 'record_id' | 'telegram_id' | 'amount' | 'found_at'>,
) =>
  db
    .insertInto('unreconciled_money')
    .values(f)
    .onConflict((oc) => oc.column('finding_key').doNothing())
    .returningAll()
    .executeTakeFirst();

export const getFinding = (db: Executor, id: number) =>
  db.selectFrom('unreconciled_money').selectAll().where('id', '=', id).executeTakeFirst();

export const listOpenFindingKeys = (db: Executor) =>
  db.selectFrom('unreconciled_money').select(['id', 'finding_key']).where('decided_at', 'is', null).execute();

/** Open findings with their booking's name and session where it still exists, oldest first. */
export const listOpenFindings = (db: Executor) =>
  db
    .selectFrom('unreconciled_money as u')
    .leftJoin('records as r', 'r.id', 'u.record_id')
    .leftJoin('schedules as s', 's.id', 'r.schedule_id')
    .leftJoin('workshops as w', 'w.id', 's.workshop_id')
    .selectAll('u')
    .select([
      'r.id as existing_record_id',
      'r.name',
      'r.last_name',
      'w.title as workshop_title',
      's.date as schedule_date',
    ])
    .where('u.decided_at', 'is', null)
    .orderBy('u.found_at')
    .orderBy('u.id')
    .execute();

export const decideFinding = (
  db: Executor,
  id: number,
  d: Pick<UnreconciledRow, 'decision' | 'reason' | 'decided_by_user_id' | 'decided_at'>,
) => db.updateTable('unreconciled_money').set(d).where('id', '=', id).execute();
