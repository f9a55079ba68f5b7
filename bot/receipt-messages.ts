import { InputFile } from 'grammy';
import type { InlineKeyboardButton } from 'grammy/types';
import { DEFAULT_LANGUAGE, type Language } from '../contract/language';
import { BUYER_DOCUMENTS, receiptKind } from '../contract/receipts';
import { escapeHtml } from '../contract/texts/html';
import type { FiscalBuyerIdPayload, FiscalReceiptPayload, ReceiptNotification } from '../core/notify/notifications';
import { encodeCallbackData } from './callback-data';
import { inlineKeyboard, recordButton } from './keyboards/webapp';
import type { OutboxCall, RenderedMessage } from './delivery/transport';
import type { OutgoingMessage } from './outgoing-message';
import { textsFor, type BotTexts } from './texts';

/*
 * The customer's fiscal receipt messages: the receipt (the PFR's text in a <pre> block, the Tax
 * Administration's verification link as a button, then its QR code as a photo), the question whether
 * to send receipts (asked once), and a refund's question for the buyer's document.
 */

/** What these messages need of the render context (bot/messages.ts). */
interface RenderContext {
  publicUrl: string;
  timezone: string;
  language?: Language;
}

/** Telegram takes 4096 characters of text after entity parsing; the margin is for the head lines. */
const TEXT_MAX = 3900;
/** A longer receipt is cut after this many messages (the verification page has all of it). */
const PARTS_MAX = 3;

const textsOf = (rc: RenderContext): BotTexts => textsFor(rc.language ?? DEFAULT_LANGUAGE);

/** What Telegram counts of an HTML text: without its tags, an entity as one character. */
const visibleLength = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&(lt|gt|amp|quot|#\d+);/g, '_').length;

/** The PFR's verification page, when it is a link Telegram opens. */
const linkOf = (url: string | null) => (url && /^https?:\/\/\S+$/i.test(url) && url.length <= 2048 ? url : null);

/**
 * The journal's lines as parts of at most `budget(i)` characters each (line breaks included), cut on
 * line ends; a line longer than a part is cut where it must. At most PARTS_MAX parts: `cut` says more
 * was left out.
 */
export function journalParts(journal: string, budget: (part: number) => number): { parts: string[]; cut: boolean } {
  const lines = journal
    .replace(/\r\n?/g, '\n')
    .replace(/^\n+|\s+$/g, '')
    .split('\n');
  const parts: string[] = [];
  let current: string[] = [];
  let length = 0;
  const room = () => budget(parts.length);
  const flush = () => {
    parts.push(current.join('\n'));
    current = [];
    length = 0;
  };
  for (const whole of lines) {
    let line = whole;
    while (line.length > room()) {
      if (current.length > 0) flush();
      parts.push(line.slice(0, room()));
      line = line.slice(room());
    }
    if (current.length > 0 && length + 1 + line.length > room()) flush();
    length += (current.length > 0 ? 1 : 0) + line.length;
    current.push(line);
  }
  if (current.length > 0) flush();
  if (parts.length <= PARTS_MAX) return { parts, cut: false };
  return {
    parts: [...parts.slice(0, PARTS_MAX - 1), `${parts[PARTS_MAX - 1].replace(/\n?[^\n]*$/, '')}\n…`],
    cut: true,
  };
}

/** The QR code's image, when it is one Telegram takes as a photo (GIF, PNG or JPEG), with its file name. */
function qrImage(base64: string | null, number: string): InputFile | null {
  if (!base64) return null;
  const bytes = Buffer.from(base64.replace(/^data:image\/\w+;base64,/, ''), 'base64');
  const type =
    bytes.subarray(0, 4).toString('latin1') === 'GIF8'
      ? 'gif'
      : bytes.subarray(1, 4).toString('latin1') === 'PNG'
        ? 'png'
        : bytes[0] === 0xff && bytes[1] === 0xd8
          ? 'jpg'
          : null;
  if (!type || bytes.length > 5_000_000) return null;
  return new InputFile(bytes, `receipt-${number.replace(/[^\w-]+/g, '_')}.${type}`);
}

function receiptMessage(p: FiscalReceiptPayload, rc: RenderContext): RenderedMessage {
  const T = textsOf(rc);
  const R = T.receipts;
  const head = [
    R.title,
    '',
    R.number(p.invoice_number),
    R.kind(receiptKind(p.invoice_type, p.transaction_type)),
    R.amount(p.amount),
    ...(p.sdc_time ? [R.issuedAt(T.common.dateTime(p.sdc_time, rc.timezone))] : []),
  ].join('\n');
  const link = linkOf(p.verification_url);
  const buttons: (InlineKeyboardButton | null)[][] = [
    [link ? { text: R.verify, url: link } : null],
    [p.record_id !== null ? recordButton(rc.publicUrl, p.record_id, R.myRecord) : null],
  ];
  const keyboard = inlineKeyboard(buttons);

  // The head, then the journal in parts; the last part carries the buttons.
  const continued = (i: number, of: number) => R.continued(i + 1, of);
  const headOf = (i: number) => (i === 0 ? head : continued(i, PARTS_MAX));
  const reserve = visibleLength(R.cut) + 2;
  const { parts, cut } = p.journal
    ? journalParts(p.journal, (i) => TEXT_MAX - visibleLength(headOf(i)) - 2 - reserve)
    : { parts: [], cut: false };
  const texts =
    parts.length === 0
      ? [head]
      : parts.map((part, i) => {
          const top = i === 0 ? head : continued(i, parts.length);
          return `${top}\n\n<pre>${escapeHtml(part)}</pre>`;
        });
  if (cut) texts[texts.length - 1] += `\n\n${R.cut}`;
  const messages: OutgoingMessage[] = texts.map((text, i) => ({
    text,
    ...(i === texts.length - 1 && keyboard && { reply_markup: keyboard }),
  }));

  // The photo last: a call that may fail goes after those that were sent (the row is retried whole).
  const photo = qrImage(p.qr, p.invoice_number);
  const calls: (OutgoingMessage | OutboxCall)[] = [...messages];
  if (photo)
    calls.push({
      method: 'sendPhoto',
      params: { photo, caption: R.qrCaption(p.invoice_number), parse_mode: 'HTML' },
    });
  return calls.length === 1 ? calls[0] : calls;
}

function consentMessage(rc: RenderContext): OutgoingMessage {
  const R = textsOf(rc).receipts;
  return {
    text: R.consentAsk,
    reply_markup: consentKeyboard(rc),
  };
}

/** «Да, присылать чеки» / «Нет». */
export const consentKeyboard = (rc: Pick<RenderContext, 'language'>) => {
  const R = textsFor(rc.language ?? DEFAULT_LANGUAGE).receipts;
  return {
    inline_keyboard: [
      [
        { text: R.consentYes, callback_data: encodeCallbackData({ kind: 'receipts', yes: true }) },
        { text: R.consentNo, callback_data: encodeCallbackData({ kind: 'receipts', yes: false }) },
      ],
    ],
  };
};

/** /mydata's switch: stop sending receipts, or start (shown once the question was asked). */
export function consentToggleKeyboard(given: boolean | null, language: Language) {
  const R = textsFor(language).receipts;
  const yes = given !== true;
  return {
    inline_keyboard: [
      [{ text: yes ? R.turnOn : R.turnOff, callback_data: encodeCallbackData({ kind: 'receipts', yes }) }],
    ],
  };
}

function buyerIdMessage(p: FiscalBuyerIdPayload, rc: RenderContext): OutgoingMessage {
  const T = textsOf(rc);
  const R = T.receipts;
  const language = rc.language ?? DEFAULT_LANGUAGE;
  const title =
    (language === 'en' ? p.workshop_title_en : language === 'sr' ? p.workshop_title_sr : null) || p.workshop_title;
  return {
    text: (p.closing ? R.buyerAskClosing : R.buyerAsk)(
      p.amount,
      title,
      p.date ? T.common.dateTime(p.date, rc.timezone) : null,
    ),
    reply_markup: {
      inline_keyboard: BUYER_DOCUMENTS.map((document) => [
        {
          text: R.documents[document],
          callback_data: encodeCallbackData({ kind: 'buyer_doc', document, receiptId: p.receipt_id }),
        },
      ]),
    },
  };
}

export function receiptNotificationMessage(n: ReceiptNotification, rc: RenderContext): RenderedMessage {
  switch (n.kind) {
    case 'fiscal.receipt':
      return receiptMessage(n.payload, rc);
    case 'fiscal.consent':
      return consentMessage(rc);
    case 'fiscal.buyer_id':
      return buyerIdMessage(n.payload, rc);
  }
}
