import type { FastifyInstance } from 'fastify';
import { fiscalApi } from '../../contract/endpoints/fiscal';
import {
  changeFiscalSettings,
  checkPfr,
  enterFiscalPin,
  fiscalReceiptFor,
  fiscalReportFor,
  fiscalSettingsFor,
  fiscalStatus,
  printFiscalReceipt,
  typeBuyerId,
  typeManualReceiptNumber,
} from '../../core/jobs/fiscal-staff';
import { actorOf } from '../plugins/actor';
import { route } from '../route';
import type { RouteDeps } from './deps';

/** Fiscal receipts as staff see them: settings, the PFR's state and PIN, a receipt, the daily report. */
export default async function fiscalRoutes(app: FastifyInstance, { database, config }: RouteDeps) {
  const db = database.db;
  route(app, fiscalApi.settings, async (req) => fiscalSettingsFor(db, actorOf(req)));
  route(app, fiscalApi.updateSettings, async (req) => changeFiscalSettings(database, actorOf(req), req.body));
  route(app, fiscalApi.status, async (req) => fiscalStatus(db, actorOf(req), { probe: req.query.probe }));
  route(app, fiscalApi.check, async (req) => checkPfr(actorOf(req), req.body.fiscal_pfr_url));
  route(app, fiscalApi.pin, async (req) => enterFiscalPin(database, actorOf(req), req.body.pin));
  route(app, fiscalApi.report, async (req) =>
    fiscalReportFor(db, actorOf(req), req.query.date, config.businessTimezone),
  );
  route(app, fiscalApi.receipt, async (req) => fiscalReceiptFor(db, actorOf(req), req.params.id));
  route(app, fiscalApi.print, async (req) => printFiscalReceipt(database, actorOf(req), req.params.id));
  route(app, fiscalApi.manual, async (req) =>
    typeManualReceiptNumber(database, actorOf(req), req.params.id, req.body.invoice_number),
  );
  route(app, fiscalApi.buyer, async (req) => typeBuyerId(database, actorOf(req), req.params.id, req.body));
}
