import type { FastifyInstance, FastifyRequest } from 'fastify';
import { exportBounds, type CashDeskQuery } from '../../contract';
import { paymentsApi } from '../../contract/endpoints/payments';
import { Forbidden, Unprocessable } from '../../core/kernel/errors';
import { CASH_DESK_COLUMNS, cashDesk, cashDeskBatches, cashDeskCells } from '../../core/payments/cash-desk';
import {
  adjustCustomerCredit,
  customerCredit,
  overridePrice,
  recordDeskPayment,
  recordRefund,
  viewLedger,
} from '../../core/payments/desk';
import {
  attachBankLine,
  dismissBankLine,
  importBankStatement,
  listBankLinesView,
} from '../../core/payments/bank-statement';
import { bookingInvoice } from '../../core/payments/invoices';
import { ipsQr } from '../../core/payments/ips-qr';
import { decideUnreconciled, listUnreconciled } from '../../core/payments/reconcile';
import { payOwedRefund } from '../../core/payments/owed-refunds';
import { apiTexts } from '../../core/language/api-texts';
import { titleIn } from '../../contract/language';
import { customerLanguage } from '../../core/language/customer-language';
import { Readable } from 'node:stream';
import { csvStream } from '../csv';
import { actorOf } from '../plugins/actor';
import { route } from '../route';
import { invoicingOf, type RouteDeps, type TelegramGateway } from './deps';

const CSV = 'text/csv; charset=utf-8';
const TELEGRAM_ONLY = 'telegramOnly';

function telegramUserOf(req: FastifyRequest) {
  if (!req.telegramUser) throw new Forbidden(TELEGRAM_ONLY);
  return req.telegramUser;
}

/** The money of bookings: ledgers, the desk's payments and refunds, the cash desk, the customer's ways to pay. */
export default async function paymentsRoutes(
  app: FastifyInstance,
  { database, config: appConfig }: RouteDeps,
  telegram: TelegramGateway | null,
) {
  const db = database.db;
  const tz = appConfig.businessTimezone;

  route(app, paymentsApi.ledger, async (req) => viewLedger(db, actorOf(req), req.params.id));

  route(app, paymentsApi.pay, async (req, reply) =>
    reply.status(201).send(await recordDeskPayment(database, actorOf(req), req.params.id, req.body)),
  );

  route(app, paymentsApi.refund, async (req, reply) =>
    reply.status(201).send(await recordRefund(database, actorOf(req), req.params.id, req.body)),
  );

  route(app, paymentsApi.adjustCredit, async (req) =>
    adjustCustomerCredit(database, actorOf(req), req.params.telegram_id, req.body),
  );

  route(app, paymentsApi.price, async (req) => overridePrice(database, actorOf(req), req.params.id, req.body));

  /** The bookings export's rule: a default period when none is given, at most 400 days. */
  const deskRange = (q: CashDeskQuery) => {
    const range = exportBounds(q, tz);
    if (!range) throw new Unprocessable('cashDeskTooLong');
    return { ...range, method: q.method, receipt: q.receipt };
  };

  route(app, paymentsApi.cashDesk, async (req) =>
    cashDesk(db, deskRange(req.query), { skip: req.query.skip, limit: req.query.limit }),
  );

  route(app, paymentsApi.cashDeskCsv, async (req, reply) => {
    const range = deskRange(req.query);
    const name = ['payments', req.query.from, req.query.to]
      .filter(Boolean)
      .join('-')
      .replace(/[^\w.-]/g, '');
    return reply
      .type(CSV)
      .header('content-disposition', `attachment; filename="${name}.csv"`)
      .send(Readable.from(csvStream(CASH_DESK_COLUMNS, cashDeskBatches(db, range), (p) => cashDeskCells(p, tz))));
  });

  route(app, paymentsApi.unreconciled, async (req) => listUnreconciled(db, actorOf(req)));

  route(app, paymentsApi.decideUnreconciled, async (req) =>
    decideUnreconciled(database, actorOf(req), req.params.id, req.body),
  );

  route(app, paymentsApi.payOwedRefund, async (req) => payOwedRefund(database, actorOf(req), req.params.id, req.body));

  route(app, paymentsApi.bankStatement, async (req) => importBankStatement(database, actorOf(req), req.body));
  route(app, paymentsApi.bankLines, async (req) => listBankLinesView(db, actorOf(req), req.query));
  route(app, paymentsApi.attachBankLine, async (req) =>
    attachBankLine(database, actorOf(req), req.params.id, req.body),
  );
  route(app, paymentsApi.dismissBankLine, async (req) =>
    dismissBankLine(database, actorOf(req), req.params.id, req.body),
  );

  route(app, paymentsApi.credit, async (req) => customerCredit(db, telegramUserOf(req).id));

  route(app, paymentsApi.invoice, async (req) => {
    // The invoice reads in the customer's language.
    const language = await customerLanguage(db, telegramUserOf(req).id);
    const t = apiTexts(language);
    return bookingInvoice(database, actorOf(req), req.params.id, invoicingOf(appConfig, telegram), {
      texts: t.invoice,
      workshopTitle: (w) => titleIn(w, language),
      dateTime: (iso) => t.format.dateTime(iso, tz),
    });
  });

  route(app, paymentsApi.ipsQr, async (req) => ipsQr(db, actorOf(req), req.params.id));
}
