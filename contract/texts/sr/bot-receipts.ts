import { formatMoney } from '../../format';
import type { BuyerDocument, BuyerIdProblem, ReceiptKind } from '../../receipts';
import { escapeHtml as e } from '../html';
import type { BotTexts } from '../ru/bot';

/* The customer's texts about fiscal receipts, in Serbian (Latin script), in the rulebook's own words. */

const rsd = (amount: number) => formatMoney(amount, 'sr');

const kinds: Record<ReceiptKind, string> = {
  advance_sale: 'avans prodaja',
  advance_refund: 'avans refundacija',
  normal_sale: 'promet prodaja',
  normal_refund: 'promet refundacija',
  copy: 'kopija',
  training: 'obuka (nije fiskalni račun)',
  proforma: 'predračun',
};

const documents: Record<BuyerDocument, string> = {
  '20': 'Lična karta Srbije',
  '23': 'Pasoš Srbije',
  '30': 'Pasoš druge zemlje',
  '22': 'EBS stranca u Srbiji',
  '10': 'PIB firme',
};

const shapes: Record<BuyerDocument, string> = {
  '20': '9 cifara',
  '23': '9 cifara',
  '30': 'slova i cifre, kao u pasošu',
  '22': '13 cifara',
  '10': '9 cifara',
};

export const receipts: BotTexts['receipts'] = {
  title: '🧾 <b>Vaš fiskalni račun</b>',
  number: (number) => `Broj: <code>${e(number)}</code>`,
  kind: (kind) => `Vrsta: ${kinds[kind]}`,
  kinds,
  amount: (amount) => `Iznos: ${rsd(amount)}`,
  issuedAt: (date) => `Izdat: ${date}`,
  continued: (part, of) => `🧾 Račun, nastavak (${part} od ${of})`,
  cut: 'Račun je dugačak: ceo se otvara dugmetom „Proveri račun“.',
  verify: '✅ Proveri račun',
  myRecord: 'Moja prijava',
  qrCaption: (number) => `QR kod za proveru računa ${e(number)}`,

  consentAsk: [
    '🧾 Studio izdaje fiskalni račun za svaku uplatu i svaki povraćaj novca.',
    '',
    'Da vam šaljem elektronske račune ovde, u Telegram? Odluku možete promeniti u /mydata.',
  ].join('\n'),
  consentYes: 'Da, šalji račune',
  consentNo: 'Ne',
  consentGiven: '✅ U redu: slaću vam elektronske račune ovde.',
  consentGivenToast: 'Slaću račune',
  consentRefused:
    'U redu, neću slati račune. Njihovi brojevi su uvek na stranici prijave. Ako se predomislite: /mydata.',
  consentRefusedToast: 'Bez računa',
  myData: (given) =>
    given === true
      ? '🧾 Elektronski računi: šaljem ih u Telegram.'
      : given === false
        ? '🧾 Elektronski računi: ne šaljem ih.'
        : '🧾 Elektronski računi: još niste rekli da li da ih šaljem.',
  turnOn: '🧾 Šalji račune',
  turnOff: 'Ne šalji račune',

  buyerAsk: (amount, workshop, date) =>
    [
      `🧾 Studio vam vraća ${rsd(amount)}${workshop ? ` za radionicu „${e(workshop)}“${date ? `, ${date}` : ''}` : ''}.`,
      '',
      'Po Zakonu o fiskalizaciji račun za povraćaj novca mora da sadrži identifikaciju kupca. Izaberite dokument i pošaljite njegov broj: potreban je samo za ovaj račun.',
    ].join('\n'),
  buyerAskClosing: (amount, workshop, date) =>
    [
      `🧾 Studio izdaje račun avans refundacija za uplaćeni avans od ${rsd(amount)}${workshop ? ` za radionicu „${e(workshop)}“${date ? `, ${date}` : ''}` : ''}.`,
      '',
      'Po Zakonu o fiskalizaciji takav račun mora da sadrži identifikaciju kupca. Izaberite dokument i pošaljite njegov broj: potreban je samo za račune studija.',
    ].join('\n'),
  documents,
  shapes,
  askNumber: (document) => `Pošaljite u jednoj poruci broj dokumenta „${documents[document]}“ (${shapes[document]}).`,
  problem: (problem: BuyerIdProblem, document) =>
    problem === 'checksum'
      ? 'Takav PIB ne postoji: proverite cifre i pošaljite broj ponovo.'
      : `Ovo ne liči na broj dokumenta „${documents[document]}“: treba ${shapes[document]}. Pošaljite ga ponovo.`,
  textOnly: 'Pošaljite broj dokumenta kao tekst.',
  buyerDone: '✅ Hvala, broj je primljen: račun za povraćaj će biti izdat.',
  buyerGone: 'Ovaj račun više ne čeka dokument.',
};
