import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CERTIFICATE_START_PREFIX, CERTIFICATE_MONTHS, formatCertificateCode } from '../../contract';
import { certificatesApi } from '../../contract/endpoints/certificates';
import { isLanguage, languageFromAcceptLanguage } from '../../contract/language';
import { sayRefusal } from '../../contract/texts/refusal';
import { Conflict, DomainError, Forbidden, Invalid, TooManyRequests } from '../../core/kernel/errors';
import { certificateCard, checkCertificate, myCertificates, redeemOnRecord } from '../../core/certificates/customers';
import { certificateAmounts, startPurchase } from '../../core/certificates/purchase';
import {
  confirmPurchase,
  issueCertificate,
  listCertificatesView,
  viewCertificate,
  voidCertificate,
} from '../../core/certificates/sale';
import { countCertificateAttempt } from '../../core/ledger/certificate-attempts';
import { certificateInvoiceParams, MONEY_MSG } from '../../core/payments/telegram';
import { actorOf } from '../plugins/actor';
import { route } from '../route';
import { certificatePage, refusalPage } from './certificate-page';
import type { RouteDeps, TelegramGateway } from './deps';

const TELEGRAM_ONLY = 'telegramOnly';

/** Gift certificates: staff issue, find, confirm and void them; customers check, buy and spend them. */
export default async function certificatesRoutes(
  app: FastifyInstance,
  { database, config }: RouteDeps,
  telegram: TelegramGateway | null,
) {
  const db = database.db;
  const invoices = () => Boolean(config.paymentProviderToken && telegram?.createInvoiceLink);
  /** Whoever types a code: their Telegram id (when from the mini-app) and address. */
  const attempt = (req: FastifyRequest) =>
    countCertificateAttempt(database, { telegramId: req.telegramUser?.id, address: req.ip });

  route(app, certificatesApi.issue, async (req, reply) =>
    reply.status(201).send(await issueCertificate(database, actorOf(req), req.body)),
  );

  route(app, certificatesApi.list, async (req) => listCertificatesView(db, actorOf(req), req.query));

  route(app, certificatesApi.view, async (req) => viewCertificate(db, actorOf(req), req.params.code));

  route(app, certificatesApi.confirm, async (req) =>
    confirmPurchase(database, actorOf(req), req.params.code, req.body.method),
  );

  route(app, certificatesApi.void, async (req) =>
    voidCertificate(database, actorOf(req), req.params.code, req.body.reason),
  );

  route(app, certificatesApi.options, async () => ({
    amounts: await certificateAmounts(db),
    telegram: invoices(),
    months: CERTIFICATE_MONTHS,
  }));

  route(app, certificatesApi.purchase, async (req, reply) => {
    const tg = req.telegramUser;
    if (!tg) throw new Forbidden(TELEGRAM_ONLY);
    const withInvoice = invoices();
    const c = await startPurchase(database, actorOf(req), req.body, {
      name: [tg.first_name, tg.last_name].filter(Boolean).join(' ') || null,
      telegramInvoices: withInvoice,
      amounts: await certificateAmounts(db),
    });
    let invoiceUrl: string | null = null;
    if (withInvoice) {
      if (!telegram?.createInvoiceLink) throw new Conflict(MONEY_MSG.noInvoices);
      invoiceUrl = await telegram.createInvoiceLink({
        ...certificateInvoiceParams(c),
        provider_token: config.paymentProviderToken!,
      });
    }
    return reply.status(201).send({ id: c.id, amount: c.amount, status: 'pending' as const, invoice_url: invoiceUrl });
  });

  route(app, certificatesApi.check, async (req) => {
    await attempt(req);
    return checkCertificate(db, actorOf(req), req.body);
  });

  route(app, certificatesApi.mine, async (req) => {
    if (!req.telegramUser) throw new Forbidden(TELEGRAM_ONLY);
    return myCertificates(db, req.telegramUser.id);
  });

  route(app, certificatesApi.redeem, async (req, reply) => {
    await attempt(req);
    return reply.status(201).send(await redeemOnRecord(database, actorOf(req), req.params.id, req.body.code));
  });
}

/**
 * The certificate's card: a printable page at /gift/ABCD-EFGH-JKLM (outside the API and the
 * front ends' routes). Whoever has the code may see it, as on paper; guessing is limited per address.
 */
export async function certificatePageRoutes(
  app: FastifyInstance,
  { database, config }: RouteDeps,
  telegram: TelegramGateway | null,
) {
  app.get<{ Params: { code: string }; Querystring: { lang?: string } }>(
    '/gift/:code',
    { schema: { hide: true } },
    async (req, reply) => {
      // The language the link was sent in (the bot and the mini-app add ?lang=), else the browser's.
      const language = isLanguage(req.query.lang)
        ? req.query.lang
        : languageFromAcceptLanguage(req.headers['accept-language']);
      let card: Awaited<ReturnType<typeof certificateCard>>;
      try {
        await countCertificateAttempt(database, { address: req.ip });
        card = await certificateCard(database.db, req.params.code);
      } catch (err) {
        // A person opened a link: the refusal as a page, with the status an API answer would have.
        if (!(err instanceof DomainError)) throw err;
        const status = err instanceof TooManyRequests ? 429 : err instanceof Invalid ? 400 : 404;
        return reply
          .status(status)
          .type('text/html; charset=utf-8')
          .send(refusalPage(config.businessName, sayRefusal(language, err), language));
      }
      const bot = telegram ? await telegram.username().catch(() => null) : null;
      const code = card.code.replaceAll('-', '');
      const html = await certificatePage({
        ...card,
        code: formatCertificateCode(code),
        businessName: config.businessName,
        timezone: config.businessTimezone,
        botLink: bot ? `https://t.me/${bot}?start=${CERTIFICATE_START_PREFIX}${code}` : null,
        language,
      });
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('vary', 'accept-language')
        .send(html);
    },
  );
}
