import type { Database, Executor } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import { auditUpdate, writeAudit, type Actor, type AuditEntity, type AuditValues } from './audit';

/*
 * Staff edits of plain resources (workshops, addresses, users, settings), each written with its
 * log entry in one transaction: the change and "who did it" commit together or not at all.
 */

type Row = AuditValues & { id: number };

export function createAudited<T extends Row>(
  database: Database,
  entity: AuditEntity,
  actor: Actor,
  insert: (trx: Executor) => Promise<T>,
): Promise<T> {
  return withWriteTransaction(database, async (trx) => {
    const row = await insert(trx);
    await writeAudit(trx, { actor, entity, entity_id: row.id, action: 'created', after: row });
    return row;
  });
}

/** Logs only the fields that changed; undefined (and nothing logged) when the row does not exist. */
export function updateAudited<T extends AuditValues>(
  database: Database,
  entity: AuditEntity,
  id: number,
  actor: Actor,
  read: (trx: Executor) => Promise<T | undefined>,
  update: (trx: Executor) => Promise<T | undefined>,
): Promise<T | undefined> {
  return withWriteTransaction(database, async (trx) => {
    const before = await read(trx);
    if (!before) return undefined;
    const after = await update(trx);
    if (after) await auditUpdate(trx, actor, entity, id, before, after);
    return after;
  });
}

/** `remove` may refuse (throw) after seeing the row; the row as it was is logged. */
export function deleteAudited<T extends AuditValues>(
  database: Database,
  entity: AuditEntity,
  id: number,
  actor: Actor,
  read: (trx: Executor) => Promise<T | undefined>,
  remove: (trx: Executor, row: T) => Promise<unknown>,
): Promise<T | undefined> {
  return withWriteTransaction(database, async (trx) => {
    const before = await read(trx);
    if (!before) return undefined;
    await remove(trx, before);
    await writeAudit(trx, { actor, entity, entity_id: id, action: 'deleted', before });
    return before;
  });
}
