import type { Database, Executor } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import type { Actor } from '../kernel/actor';
import type { AuditEntity, AuditValues } from './audit';
import { publish } from './publish';

/*
 * Staff edits of plain resources (workshops, addresses, users, settings): the change and its event
 * ("who did it", published as a log entry) commit in one transaction, or neither does.
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
    await publish(trx, [{ type: 'entity.created', actor, entity, entity_id: row.id, after: row }]);
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
    if (after) await publish(trx, [{ type: 'entity.updated', actor, entity, entity_id: id, before, after }]);
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
    await publish(trx, [{ type: 'entity.deleted', actor, entity, entity_id: id, before }]);
    return before;
  });
}
