import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuditPage, AuditQuery, IdParam, PageQuery, rangeBounds } from '../../contract';
import { listAudit } from '../../db/repositories/audit';
import { getRecord } from '../../db/repositories/records';
import { toAuditEntry } from '../../core/staff/audit-view';
import { MSG } from '../../core/kernel/messages';
import { NotFound } from '../../core/kernel/errors';
import type { RouteDeps } from './deps';

export default async function auditRoutes(app: FastifyInstance, { database, config: { businessTimezone } }: RouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = database.db;
  const tags = ['audit'];

  r.get(
    '/records/:id/history',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "A booking's history: who changed what, newest first",
        params: IdParam,
        querystring: PageQuery,
        response: { 200: AuditPage },
      },
    },
    async (req) => {
      // The log outlives a deleted session's bookings, so only an existing record is looked up.
      if (!(await getRecord(db, req.params.id))) throw new NotFound(MSG.recordNotFound);
      const { rows, count } = await listAudit(db, { entity: 'record', entity_id: req.params.id }, req.query);
      return { data: rows.map(toAuditEntry), count };
    },
  );

  r.get(
    '/audit/',
    {
      config: { auth: 'superuser' },
      schema: {
        tags,
        summary: 'The audit log, newest first, by entity and period',
        querystring: AuditQuery,
        response: { 200: AuditPage },
      },
    },
    async (req) => {
      const { entity, entity_id } = req.query;
      const { rows, count } = await listAudit(
        db,
        { entity, entity_id, ...rangeBounds(req.query, businessTimezone) },
        req.query,
      );
      return { data: rows.map(toAuditEntry), count };
    },
  );
}
