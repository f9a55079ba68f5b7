import { CERTIFICATE_MSG, type CertificatePublic } from '../contract';
import { DEFAULT_LANGUAGE, inLanguage, LOCALES, type Language } from '../contract/language';
import { sayRefusal } from '../contract/texts/refusal';
import type { CertificateNotification, Notification } from '../core/notify/notifications';
import { shareUrl } from './keyboards/journey';
import { inlineKeyboard, urlButton, webAppButton, webAppsEnabled } from './keyboards/webapp';
import { texts, textsFor } from './texts';
import type { OutgoingMessage } from './outgoing-message';

/*
 * The bot's certificate messages: the buyer's certificate (code, card, how to use), the reply to its
 * link in the bot, the reminder before it expires, and staff's alerts. A places certificate's say places.
 */

interface Where {
  publicUrl: string;
  timezone: string;
  language?: Language;
}

/** A date as the customer's language writes it ("23 ноября 2027"). */
const dateIn = (when: string, w: Where) =>
  new Intl.DateTimeFormat(LOCALES[w.language ?? DEFAULT_LANGUAGE], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: w.timezone,
  }).format(new Date(when));

/**
 * The card page in the customer's language, booking with the code (the mini-app's /apply fills it in),
 * and for the buyer `share`: Telegram's chat picker with a message for the recipient already written
 * (its text and the card's link without a language, so the card opens in the recipient's own).
 */
function buttons(w: Where, code: string, url: string, share?: string) {
  const language = w.language ?? DEFAULT_LANGUAGE;
  const B = textsFor(language).certificates.buttons;
  return inlineKeyboard([
    [urlButton(w.publicUrl, B.card, inLanguage(url, language))],
    [share && webAppsEnabled(w.publicUrl) ? { text: B.share, url: shareUrl(`${w.publicUrl}${url}`, share) } : null],
    [webAppButton(w.publicUrl, B.book, `/apply?cert=${code.replaceAll('-', '')}`)],
  ]);
}

export function certificateMessage(n: CertificateNotification, w: Where): OutgoingMessage {
  const T = textsFor(w.language ?? DEFAULT_LANGUAGE).certificates;
  if (n.kind === 'certificate.expiring') {
    const p = n.payload;
    return {
      text:
        p.places_left != null
          ? T.expiringPlaces(p.code, p.places_left, dateIn(p.expires_at, w))
          : T.expiring(p.code, p.balance, dateIn(p.expires_at, w)),
      reply_markup: buttons(w, p.code, `/gift/${p.code}`),
    };
  }
  const p = n.payload;
  const lines = [
    p.places != null ? T.readyPlaces(p.places) : T.ready(p.amount),
    '',
    T.code(p.code),
    ...(p.recipient_name ? [T.recipient(p.recipient_name)] : []),
    ...(p.greeting ? [T.greeting(p.greeting)] : []),
    T.validUntil(dateIn(p.expires_at, w)),
    '',
    T.howToUse,
  ];
  const share = p.places != null ? T.sharePlaces(p.places, p.code) : T.share(p.amount, p.code);
  return { text: lines.join('\n'), reply_markup: buttons(w, p.code, p.url, share) };
}

/** The reply to `start=cert_<code>`: the certificate's balance and expiry, and how to use it. */
export function openedCertificateMessage(c: CertificatePublic, w: Where): OutgoingMessage {
  const language = w.language ?? DEFAULT_LANGUAGE;
  const T = textsFor(language).certificates;
  const code =
    c.status === 'expired'
      ? CERTIFICATE_MSG.expired
      : c.status === 'used'
        ? CERTIFICATE_MSG.usedUp
        : c.status === 'voided'
          ? CERTIFICATE_MSG.voided
          : null;
  const refusal = code && sayRefusal(language, { code });
  const lines = [
    `🎁 ${T.opened} ${c.code}`,
    ...(c.recipient_name ? [T.recipient(c.recipient_name)] : []),
    ...(c.greeting ? [T.greeting(c.greeting)] : []),
    '',
    ...(refusal
      ? [refusal]
      : c.kind === 'places'
        ? [T.balancePlaces(c.balance), T.validUntil(dateIn(c.expires_at, w)), '', T.openedHintPlaces]
        : [T.balance(c.balance), T.validUntil(dateIn(c.expires_at, w)), '', T.openedHint]),
  ];
  return { text: lines.join('\n'), reply_markup: refusal ? undefined : buttons(w, c.code, c.url) };
}

export function staffCertificateMessage(
  n: Extract<Notification, { kind: 'staff.certificate' }>,
  w: Where,
): OutgoingMessage {
  const S = texts.staff.certificates;
  const p = n.payload;
  const text =
    p.event === 'requested'
      ? S.requested(p.code, p.amount, p.buyer_name ?? S.unknownBuyer)
      : p.event === 'late'
        ? S.late(p.code, p.amount)
        : p.places != null
          ? S.expiredPlaces(p.code, p.places)
          : S.expired(p.code, p.amount);
  return { text, reply_markup: inlineKeyboard([[urlButton(w.publicUrl, S.openList, '/certificates')]]) };
}
