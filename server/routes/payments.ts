import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CashDesk,
  CashDeskQuery,
  CustomerCredit,
  IdParam,
  InvoiceLink,
  IpsQr,
  PaymentCreate,
  PriceOverride,
  RecordLedger,
  RefundCreate,
  rangeBounds,
} from '../../contract';
import { formatDateTime } from '../../contract/format';
import { loadForActor } from '../../core/booking/command';
import { Conflict, Forbidden } from '../../core/kernel/errors';
import {
  CASH_DESK_COLUMNS,
  cashDesk,
  cashDeskCells,
  customerCredit,
  overridePrice,
  recordDeskPayment,
  recordRefund,
  viewLedger,
} from '../../core/money/desk';
import { ipsEnabled, ipsImage, ipsText } from '../../core/money/ips-qr';
import { recordMoney } from '../../core/money/ledger';
import { payNow } from '../../core/money/price';
import { MONEY_MSG, invoiceFor, invoiceParams } from '../../core/money/telegram';
import { toCsv } from '../csv';
import { actorOf } from '../plugins/actor';
import type { RouteDeps, TelegramGateway } from './deps';

const CSV = 'text/csv; charset=utf-8';
const TELEGRAM_ONLY = 'Это действие доступно только из Telegram';
const NO_TRANSFERS = 'Студия не принимает банковские переводы: оплатите на месте';

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
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = database.db;
  const tags = ['payments'];
  const staff = { auth: 'user' as const };
  const customer = { auth: 'customer' as const };
  const tz = appConfig.businessTimezone;

  r.get(
    '/records/:id/payments',
    {
      config: staff,
      schema: {
        tags,
        summary: "A booking's money and its ledger",
        errors: [404],
        params: IdParam,
        response: { 200: RecordLedger },
      },
    },
    async (req) => viewLedger(db, actorOf(req), req.params.id),
  );

  r.post(
    '/records/:id/payments',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Record a payment at the studio (cash, card) or a transfer that arrived; by default the balance',
        description: 'A payment above what is still owed is refused with 409, so the same money is never taken twice.',
        errors: [404, 409],
        params: IdParam,
        body: PaymentCreate,
        response: { 201: RecordLedger },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await recordDeskPayment(database, actorOf(req), req.params.id, req.body)),
  );

  r.post(
    '/records/:id/refunds',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Record a refund made (or moved to the customer’s studio credit); by default what is owed',
        errors: [404, 409],
        params: IdParam,
        body: RefundCreate,
        response: { 201: RecordLedger },
      },
    },
    async (req, reply) => reply.status(201).send(await recordRefund(database, actorOf(req), req.params.id, req.body)),
  );

  r.put(
    '/records/:id/price',
    {
      config: staff,
      schema: {
        tags,
        summary: "Set a booking's price by hand, with the reason (null: back to the price fixed at booking)",
        errors: [404, 409],
        params: IdParam,
        body: PriceOverride,
        response: { 200: RecordLedger },
      },
    },
    async (req) => overridePrice(database, actorOf(req), req.params.id, req.body),
  );

  r.get(
    '/payments/',
    {
      config: staff,
      schema: {
        tags,
        summary: 'The cash desk: ledger rows in a range, totals per method, refunds owed, credit outstanding',
        querystring: CashDeskQuery,
        response: { 200: CashDesk },
      },
    },
    async (req) => cashDesk(db, { ...rangeBounds(req.query, tz), method: req.query.method }),
  );

  r.get(
    '/payments/export.csv',
    {
      config: staff,
      schema: { tags, summary: 'The cash desk’s rows as CSV (UTF-8 with BOM, ";")', querystring: CashDeskQuery },
    },
    async (req, reply) => {
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
    },
  );

  r.get(
    '/me/credit',
    {
      config: customer,
      schema: {
        tags,
        summary: "The Telegram customer's studio credit",
        errors: [403],
        response: { 200: CustomerCredit },
      },
    },
    async (req) => customerCredit(db, telegramUserOf(req).id),
  );

  r.post(
    '/records/:id/invoice',
    {
      config: customer,
      schema: {
        tags,
        summary: 'A Telegram invoice link for what the booking should pay now (the owner, from Telegram)',
        errors: [403, 404, 409],
        params: IdParam,
        response: { 200: InvoiceLink },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      telegramUserOf(req);
      const token = appConfig.paymentProviderToken;
      if (!token || !telegram?.createInvoiceLink) throw new Conflict(MONEY_MSG.noInvoices);
      const { record, schedule, amount } = await invoiceFor(database, actor, req.params.id);
      const params = invoiceParams(
        record,
        { workshop_title: schedule.workshop.title, date: schedule.date },
        amount,
        formatDateTime(schedule.date, tz),
      );
      return { url: await telegram.createInvoiceLink({ ...params, provider_token: token }), amount };
    },
  );

  r.get(
    '/records/:id/ips-qr',
    {
      config: customer,
      schema: {
        tags,
        summary: 'The NBS IPS QR payment order for what the booking should pay now (the owner or staff)',
        errors: [404, 409],
        params: IdParam,
        response: { 200: IpsQr },
      },
    },
    async (req) => {
      const c = await loadForActor(db, actorOf(req), req.params.id);
      if (!ipsEnabled(c.settings)) throw new Conflict(NO_TRANSFERS);
      if (c.record.state === 'CANCELLED') throw new Conflict(MONEY_MSG.cancelled);
      const amount = payNow(await recordMoney(db, c.record, c.settings));
      if (amount <= 0) throw new Conflict(MONEY_MSG.nothingToPay);
      const text = ipsText(c.settings, c.record, c.schedule.workshop.title, amount);
      return { text, image: await ipsImage(text) };
    },
  );
}
