import type { ApiTexts } from '../language/api-texts';

/*
 * The messages a customer shares from the mini-app (Telegram's shareMessage): the bot prepares each
 * for that customer alone (savePreparedInlineMessage) and the customer picks the friend's chat inside
 * Telegram. A message sent this way cannot carry a web-app button, so its button is a t.me link that
 * the bot answers with the mini-app. Plain Bot API objects: no Telegram library in the core.
 */

/** An InlineQueryResultArticle with a text and one link button. */
export interface ShareArticle {
  type: 'article';
  id: string;
  title: string;
  description: string;
  input_message_content: { message_text: string; link_preview_options: { is_disabled: true } };
  reply_markup: { inline_keyboard: [[{ text: string; url: string }]] };
}

/** Where a prepared message may be sent: people's chats and groups (a friend, a family chat), not bots or channels. */
export const SHARE_CHAT_TYPES = { allow_user_chats: true, allow_group_chats: true } as const;

/** What Telegram answers for a prepared message: its id for shareMessage, and until when it can be sent (unix time). */
export interface PreparedInlineMessage {
  id: string;
  expiration_date: number;
}

const article = (id: string, title: string, description: string, text: string, button: string, url: string) =>
  ({
    type: 'article',
    id,
    title,
    description,
    input_message_content: { message_text: text, link_preview_options: { is_disabled: true } },
    reply_markup: { inline_keyboard: [[{ text: button, url }]] },
  }) satisfies ShareArticle;

/** The seat gift: the session, the seats and the one-time link, in the giver's language. */
export function seatGiftArticle(
  t: ApiTexts,
  gift: { recordId: number; workshop: string; date: string; people: number; url: string },
): ShareArticle {
  return article(
    `gift-${gift.recordId}`,
    t.share.giftTitle(gift.workshop),
    t.share.giftDescription(gift.date),
    t.share.giftText(gift.workshop, gift.date, gift.people),
    t.share.giftButton,
    gift.url,
  );
}

/** A gift certificate: what is left on it, until when, its code, and the link that opens it. */
export function certificateArticle(
  t: ApiTexts,
  cert: { id: number; code: string; amount: string; until: string; url: string },
): ShareArticle {
  return article(
    `certificate-${cert.id}`,
    t.share.certificateTitle(cert.amount),
    t.share.certificateDescription(cert.until),
    t.share.certificateText(cert.amount, cert.until, cert.code),
    t.share.certificateButton,
    cert.url,
  );
}
