import type { FastifyInstance } from 'fastify';
import { rangeBounds } from '../../contract';
import { auditApi } from '../../contract/endpoints/audit';
import { recordsApi } from '../../contract/endpoints/records';
import { listAudit } from '../../db/repositories/audit';
import { getRecord } from '../../db/repositories/records';
import { toAuditEntries } from '../../core/staff/audit-view';
import { MSG } from '../../core/kernel/messages';
import { NotFound } from '../../core/kernel/errors';
import type { RouteDeps } from './deps';
import { route } from '../route';

export default async function auditRoutes(app: FastifyInstance, { database, config: { businessTimezone } }: RouteDeps) {
  const db = database.db;

  route(app, recordsApi.history, async (req) => {
    // The log outlives a deleted session's bookings, so only an existing record is looked up.
    if (!(await getRecord(db, req.params.id))) throw new NotFound(MSG.recordNotFound);
    const { rows, count } = await listAudit(db, { entity: 'record', entity_id: req.params.id }, req.query);
    return { data: await toAuditEntries(db, rows, businessTimezone), count };
  });

  route(app, auditApi.list, async (req) => {
    const { entity, entity_id } = req.query;
    const { rows, count } = await listAudit(
      db,
      { entity, entity_id, ...rangeBounds(req.query, businessTimezone) },
      req.query,
    );
    return { data: await toAuditEntries(db, rows, businessTimezone), count };
  });
}
