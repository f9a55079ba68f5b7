import { formatMoney } from '../../format';
import type { BuyerDocument, BuyerIdProblem, ReceiptKind } from '../../receipts';
import { escapeHtml as e } from '../html';
import type { BotTexts } from '../ru/bot';

/* The customer's texts about fiscal receipts, in English. */

const rsd = (amount: number) => formatMoney(amount, 'en');

const kinds: Record<ReceiptKind, string> = {
  advance_sale: 'advance payment',
  advance_refund: 'advance refund',
  normal_sale: 'sale',
  normal_refund: 'refund',
  copy: 'copy',
  training: 'training (not fiscal)',
  proforma: 'pro forma',
};

const documents: Record<BuyerDocument, string> = {
  '20': 'Serbian ID card',
  '23': 'Serbian passport',
  '30': 'Passport of another country',
  '22': "Foreigner's EBS number in Serbia",
  '10': 'Company PIB',
};

const shapes: Record<BuyerDocument, string> = {
  '20': '9 digits',
  '23': '9 digits',
  '30': 'letters and digits, as in the passport',
  '22': '13 digits',
  '10': '9 digits',
};

export const receipts: BotTexts['receipts'] = {
  title: '🧾 <b>Your fiscal receipt</b>',
  number: (number) => `Number: <code>${e(number)}</code>`,
  kind: (kind) => `Type: ${kinds[kind]}`,
  kinds,
  amount: (amount) => `Amount: ${rsd(amount)}`,
  issuedAt: (date) => `Issued: ${date}`,
  continued: (part, of) => `🧾 Receipt, continued (${part} of ${of})`,
  cut: 'The receipt is long: “Verify the receipt” opens all of it.',
  verify: '✅ Verify the receipt',
  myRecord: 'My booking',
  qrCaption: (number) => `The QR code to verify receipt ${e(number)}`,

  consentAsk: [
    '🧾 The studio issues a fiscal receipt for every payment and every refund.',
    '',
    'Shall I send you electronic receipts here in Telegram? You can change your answer in /mydata.',
  ].join('\n'),
  consentYes: 'Yes, send receipts',
  consentNo: 'No',
  consentGiven: '✅ Fine: I will send electronic receipts here.',
  consentGivenToast: 'I will send receipts',
  consentRefused:
    'Fine, I will not send receipts. Their numbers are always on the booking page. If you change your mind: /mydata.',
  consentRefusedToast: 'No receipts',
  myData: (given) =>
    given === true
      ? '🧾 Electronic receipts: sent to you in Telegram.'
      : given === false
        ? '🧾 Electronic receipts: not sent.'
        : '🧾 Electronic receipts: you have not said yet whether to send them.',
  turnOn: '🧾 Send receipts',
  turnOff: 'Do not send receipts',

  buyerAsk: (amount, workshop, date) =>
    [
      `🧾 The studio is refunding you ${rsd(amount)}${workshop ? ` for the workshop “${e(workshop)}”${date ? `, ${date}` : ''}` : ''}.`,
      '',
      'Under the Serbian fiscalization law a refund receipt must name the buyer’s document. Pick the document and send its number: it is needed for this receipt only.',
    ].join('\n'),
  buyerAskClosing: (amount, workshop, date) =>
    [
      `🧾 The studio is issuing the receipt that closes your advance payment of ${rsd(amount)}${workshop ? ` for the workshop “${e(workshop)}”${date ? `, ${date}` : ''}` : ''}.`,
      '',
      'Under the Serbian fiscalization law such a receipt must name the buyer’s document. Pick the document and send its number: it is needed for the studio’s receipts only.',
    ].join('\n'),
  documents,
  shapes,
  askNumber: (document) =>
    `Please send the number of your ${documents[document]} in one message (${shapes[document]}).`,
  problem: (problem: BuyerIdProblem, document) =>
    problem === 'checksum'
      ? 'There is no such PIB: please check the digits and send the number again.'
      : `That does not look like the number of a ${documents[document]}: it should be ${shapes[document]}. Please send it again.`,
  textOnly: 'Please send the document number as text.',
  buyerDone: '✅ Thank you, the number is taken: the refund receipt will be issued.',
  buyerGone: 'This receipt no longer waits for a document.',
};
