import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rangeBounds } from '../../contract';
import { paymentsApi } from '../../contract/endpoints/payments';
import { loadForActor } from '../../core/booking/command';
import { Conflict, Forbidden } from '../../core/kernel/errors';
import { CASH_DESK_COLUMNS, cashDesk, cashDeskCells } from '../../core/payments/cash-desk';
import {
  adjustCustomerCredit,
  customerCredit,
  overridePrice,
  recordDeskPayment,
  recordRefund,
  viewLedger,
} from '../../core/payments/desk';
import { ipsEnabled, ipsImage, ipsText } from '../../core/payments/ips-qr';
import { recordMoney } from '../../core/ledger/ledger';
import { payNow } from '../../core/ledger/price';
import { MONEY_MSG, invoiceFor, invoiceParams } from '../../core/payments/telegram';
import { apiTexts } from '../../core/language/api-texts';
import { titleIn } from '../../contract/language';
import { customerLanguage } from '../../core/language/customer-language';
import { toCsv } from '../csv';
import { actorOf } from '../plugins/actor';
import { route } from '../route';
import type { RouteDeps, TelegramGateway } from './deps';

const CSV = 'text/csv; charset=utf-8';
const TELEGRAM_ONLY = 'telegramOnly';
const NO_TRANSFERS = 'noTransfers';

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

  route(app, paymentsApi.cashDesk, async (req) =>
    cashDesk(db, { ...rangeBounds(req.query, tz), method: req.query.method }),
  );

  route(app, paymentsApi.cashDeskCsv, async (req, reply) => {
    const desk = await cashDesk(db, { ...rangeBounds(req.query, tz), method: req.query.method });
    const name = ['payments', req.query.from, req.query.to]
      .filter(Boolean)
      .join('-')
      .replace(/[^\w.-]/g, '');
    return reply
      .type(CSV)
      .header('content-disposition', `attachment; filename="${name}.csv"`)
      .send(
        toCsv(
          CASH_DESK_COLUMNS,
          desk.payments.map((p) => cashDeskCells(p, tz)),
        ),
      );
  });

  route(app, paymentsApi.credit, async (req) => customerCredit(db, telegramUserOf(req).id));

  route(app, paymentsApi.invoice, async (req) => {
    const actor = actorOf(req);
    const tg = telegramUserOf(req);
    const token = appConfig.paymentProviderToken;
    if (!token || !telegram?.createInvoiceLink) throw new Conflict(MONEY_MSG.noInvoices);
    const { record, schedule, amount } = await invoiceFor(database, actor, req.params.id);
    // The invoice in the customer's language.
    const language = await customerLanguage(db, tg.id);
    const t = apiTexts(language);
    const params = invoiceParams(
      record,
      { workshop_title: titleIn(schedule.workshop, language), date: schedule.date },
      amount,
      t.format.dateTime(schedule.date, tz),
      t.invoice,
    );
    return { url: await telegram.createInvoiceLink({ ...params, provider_token: token }), amount };
  });

  route(app, paymentsApi.ipsQr, async (req) => {
    const c = await loadForActor(db, actorOf(req), req.params.id);
    if (!ipsEnabled(c.settings)) throw new Conflict(NO_TRANSFERS);
    if (c.record.state === 'CANCELLED') throw new Conflict(MONEY_MSG.cancelled);
    const amount = payNow(await recordMoney(db, c.record, c.settings));
    if (amount <= 0) throw new Conflict(MONEY_MSG.nothingToPay);
    const text = ipsText(c.settings, c.record, c.schedule.workshop.title, amount);
    return { text, image: await ipsImage(text) };
  });
}
