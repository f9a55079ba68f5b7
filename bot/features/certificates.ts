import { Composer } from 'grammy';
import { CERTIFICATE_MSG, CERTIFICATE_START_PREFIX } from '../../contract';
import { sayRefusal } from '../../contract/texts/refusal';
import { DomainError, type RefusalCode } from '../../core/kernel/errors';
import { openCertificate } from '../../core/certificates/customers';
import { openedCertificateMessage } from '../certificate-messages';
import { HTML, type BotContext, type BotDeps } from '../context';

/** The refusals the link says as they are; any other is «not found» (it does not tell a stranger more). */
const SAID: RefusalCode[] = [
  CERTIFICATE_MSG.malformed,
  CERTIFICATE_MSG.notFound,
  CERTIFICATE_MSG.pending,
  CERTIFICATE_MSG.tooMany,
];

/**
 * `/start cert_<code>`: the certificate's link. The opener sees its balance, expiry and how to use it,
 * and (unless the buyer opens their own) it becomes theirs to be reminded of before it expires.
 * Guessing codes this way counts against the same limit as the mini-app's.
 */
export function certificatesFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  composer.command('start', async (ctx, next) => {
    if (!ctx.match.startsWith(CERTIFICATE_START_PREFIX)) return next();
    const code = ctx.match.slice(CERTIFICATE_START_PREFIX.length).trim();
    try {
      const c = await openCertificate(deps.database, ctx.from!.id, code);
      const m = openedCertificateMessage(c, {
        publicUrl: deps.config.publicUrl,
        timezone: deps.config.businessTimezone,
        language: ctx.language,
      });
      await ctx.reply(m.text, { ...HTML, reply_markup: m.reply_markup });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const code = SAID.includes(err.code) ? err.code : CERTIFICATE_MSG.notFound;
      await ctx.reply(sayRefusal(ctx.language, { code }), HTML);
    }
  });
  return composer;
}
