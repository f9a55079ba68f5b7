import type { FastifyInstance } from 'fastify';
import { CERTIFICATE_START_PREFIX, formatCertificateCode } from '../../contract';
import { certificatesApi } from '../../contract/endpoints/certificates';
import { isLanguage, languageFromAcceptLanguage } from '../../contract/language';
import { sayRefusal } from '../../contract/texts/refusal';
import { DomainError, Forbidden, Invalid, TooManyRequests } from '../../core/kernel/errors';
import { certificateCard, checkCertificate, myCertificates, redeemOnRecord } from '../../core/certificates/customers';
import {
  confirmPurchase,
  issueCertificate,
  listCertificatesView,
  viewCertificate,
  voidCertificate,
} from '../../core/certificates/sale';
import { buyCertificate, certificateOptions } from '../../core/payments/invoices';
import { apiTexts } from '../../core/language/api-texts';
import { customerLanguage } from '../../core/language/customer-language';
import { actorOf } from '../plugins/actor';
import { route } from '../route';
import { certificatePage, refusalPage } from './certificate-page';
import { invoicingOf, type RouteDeps, type TelegramGateway } from './deps';

const TELEGRAM_ONLY = 'telegramOnly';

/** Gift certificates: staff issue, find, confirm and void them; customers check, buy and spend them. */
export default async function certificatesRoutes(
  app: FastifyInstance,
  { database, config }: RouteDeps,
  telegram: TelegramGateway | null,
) {
  const db = database.db;
  const invoicing = () => invoicingOf(config, telegram);

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

  route(app, certificatesApi.options, async () => certificateOptions(db, invoicing()));

  route(app, certificatesApi.purchase, async (req, reply) => {
    const tg = req.telegramUser;
    if (!tg) throw new Forbidden(TELEGRAM_ONLY);
    const name = [tg.first_name, tg.last_name].filter(Boolean).join(' ') || null;
    // The invoice reads in the buyer's language.
    const texts = apiTexts(await customerLanguage(db, tg.id));
    return reply.status(201).send(await buyCertificate(database, actorOf(req), req.body, name, invoicing(), texts));
  });

  route(app, certificatesApi.check, async (req) => checkCertificate(database, actorOf(req), req.body, req.ip));

  route(app, certificatesApi.mine, async (req) => {
    if (!req.telegramUser) throw new Forbidden(TELEGRAM_ONLY);
    return myCertificates(db, req.telegramUser.id);
  });

  route(app, certificatesApi.redeem, async (req, reply) =>
    reply.status(201).send(await redeemOnRecord(database, actorOf(req), req.params.id, req.body.code, req.ip)),
  );
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
        card = await certificateCard(database, req.params.code, req.ip);
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
