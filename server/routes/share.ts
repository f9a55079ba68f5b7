import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CERTIFICATE_START_PREFIX } from '../../contract/certificates';
import { titleIn } from '../../contract/language';
import { shareApi } from '../../contract/endpoints/share';
import { customerActor } from '../../core/kernel/actor';
import { Forbidden } from '../../core/kernel/errors';
import { ALLOWED_MSG } from '../../core/booking/allowed';
import { apiTexts } from '../../core/language/api-texts';
import { customerLanguage } from '../../core/language/customer-language';
import { certificateToShare } from '../../core/certificates/customers';
import { createSeatGift, giftUrl, viewSeatGift } from '../../core/journey/seat-gifts';
import { certificateArticle, seatGiftArticle, type ShareArticle } from '../../core/journey/share-messages';
import { HttpError } from '../http-error';
import { route } from '../route';
import type { RouteDeps, TelegramGateway } from './deps';

/**
 * Giving from the mini-app with Telegram's shareMessage: the bot prepares the message for the caller
 * (savePreparedInlineMessage: only they may send it) and answers its id, with the same gift as a link
 * for clients that cannot share a prepared message.
 */
export default async function shareRoutes(
  app: FastifyInstance,
  { database, config }: RouteDeps,
  telegram: TelegramGateway | null,
) {
  const db = database.db;

  /** Telegram's answer, or 503 when it does not answer. */
  async function ask<T>(req: FastifyRequest, what: () => Promise<T>): Promise<T> {
    try {
      return await what();
    } catch (err) {
      req.log.error({ err }, 'telegram: preparing a shared message failed');
      throw new HttpError(503, { code: 'telegramUnavailable' });
    }
  }

  /** The customer behind the request, their texts, the bot's username, and the preparing of their message. */
  async function sharer(req: FastifyRequest) {
    const tg = req.telegramUser;
    if (!tg) throw new Forbidden(ALLOWED_MSG.telegramOnly);
    const save = telegram?.savePreparedInlineMessage;
    if (!telegram || !save) throw new HttpError(503, { code: 'botNotConfigured' });
    const language = await customerLanguage(db, tg.id);
    return {
      tg,
      language,
      t: apiTexts(language),
      username: () => ask(req, () => telegram.username()),
      prepare: (article: ShareArticle) => ask(req, () => save.call(telegram, tg.id, article)),
    };
  }

  route(app, shareApi.seatGift, async (req) => {
    const { tg, language, t, username, prepare } = await sharer(req);
    const gift = await createSeatGift(database, customerActor(tg.id), req.params.id);
    const url = giftUrl(await username(), gift.token);
    const { record, schedule } = await viewSeatGift(database, gift.token);
    const article = seatGiftArticle(t, {
      recordId: record.id,
      workshop: titleIn(schedule.workshop, language),
      date: t.format.dateTime(schedule.date, config.businessTimezone),
      people: record.people_count,
      url,
    });
    const prepared = await prepare(article);
    return { id: prepared.id, expiration_date: prepared.expiration_date, url };
  });

  route(app, shareApi.certificate, async (req) => {
    const { tg, t, username, prepare } = await sharer(req);
    const cert = await certificateToShare(db, tg.id, req.params.id);
    const url = `https://t.me/${await username()}?start=${CERTIFICATE_START_PREFIX}${cert.startCode}`;
    const article = certificateArticle(t, {
      id: cert.id,
      code: cert.code,
      // A places certificate gives places, never a sum: its value is the workshop's price when used.
      amount: cert.kind === 'places' ? t.format.places(cert.balance) : t.format.money(cert.balance),
      until: t.format.date(cert.expires_at, config.businessTimezone),
      url,
    });
    const prepared = await prepare(article);
    return { id: prepared.id, expiration_date: prepared.expiration_date, url };
  });
}
