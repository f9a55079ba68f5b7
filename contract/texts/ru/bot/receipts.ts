import type { BuyerDocument, BuyerIdProblem, ReceiptKind } from '../../../receipts';
import { escapeHtml as e } from '../../html';
import { rsd } from './money';

const kinds = {
  advance_sale: 'аванс',
  advance_refund: 'возврат аванса',
  normal_sale: 'продажа',
  normal_refund: 'возврат',
  copy: 'копия',
  training: 'учебный (не фискальный)',
  proforma: 'счёт-проформа',
} satisfies Record<ReceiptKind, string>;

const documents = {
  '20': 'Личная карта Сербии',
  '23': 'Паспорт Сербии',
  '30': 'Паспорт другой страны',
  '22': 'ЭБС иностранца в Сербии',
  '10': 'ПИБ компании',
} satisfies Record<BuyerDocument, string>;

/** How each number looks. */
const shapes = {
  '20': '9 цифр',
  '23': '9 цифр',
  '30': 'буквы и цифры, как в паспорте',
  '22': '13 цифр',
  '10': '9 цифр',
} satisfies Record<BuyerDocument, string>;

/*
 * What the bot says about fiscal receipts: the receipt itself (the PFR's text is shown as it is), the
 * question whether to send receipts at all (asked once), and a refund's question for the buyer's
 * document, which the law requires on a refund receipt.
 */
export const receipts = {
  title: '🧾 <b>Ваш фискальный чек</b>',
  number: (number: string) => `Номер: <code>${e(number)}</code>`,
  kind: (kind: ReceiptKind) => `Вид: ${kinds[kind]}`,
  kinds,
  amount: (amount: number) => `Сумма: ${rsd(amount)}`,
  /** `date`: as common.dateTime writes it. */
  issuedAt: (date: string) => `Выдан: ${date}`,
  /** The head of the second and later parts of a long receipt. */
  continued: (part: number, of: number) => `🧾 Чек, продолжение (${part} из ${of})`,
  cut: 'Чек длинный: целиком он открывается по кнопке «Проверить чек».',
  verify: '✅ Проверить чек',
  myRecord: 'Моя запись',
  qrCaption: (number: string) => `QR-код для проверки чека ${e(number)}`,

  consentAsk: [
    '🧾 Студия выдаёт фискальный чек на каждую оплату и каждый возврат.',
    '',
    'Присылать вам электронные чеки сюда, в Telegram? Решение можно изменить в /mydata.',
  ].join('\n'),
  consentYes: 'Да, присылать чеки',
  consentNo: 'Нет',
  consentGiven: '✅ Хорошо: буду присылать электронные чеки сюда.',
  consentGivenToast: 'Буду присылать чеки',
  consentRefused: 'Хорошо, чеки присылать не буду. Номера чеков всегда есть на странице записи. Передумаете — /mydata.',
  consentRefusedToast: 'Чеки присылать не буду',
  /** /mydata: the answer given (null: asked, not answered). */
  myData: (given: boolean | null): string =>
    given === true
      ? '🧾 Электронные чеки: присылаю в Telegram.'
      : given === false
        ? '🧾 Электронные чеки: не присылаю.'
        : '🧾 Электронные чеки: вы ещё не ответили, присылать ли их.',
  turnOn: '🧾 Присылать чеки',
  turnOff: 'Не присылать чеки',

  /** `date`: as common.dateTime writes it. */
  buyerAsk: (amount: number, workshop: string | null, date: string | null) =>
    [
      `🧾 Студия возвращает вам ${rsd(amount)}${workshop ? ` за мастер-класс «${e(workshop)}»${date ? `, ${date}` : ''}` : ''}.`,
      '',
      'По закону о фискализации чек на возврат денег должен содержать документ покупателя. Выберите документ и пришлите его номер: он нужен только для этого чека.',
    ].join('\n'),
  /** The delivery's receipt closing what was paid in advance: no money goes back, the law asks the same. */
  buyerAskClosing: (amount: number, workshop: string | null, date: string | null) =>
    [
      `🧾 Студия выдаёт чек, закрывающий аванс ${rsd(amount)}${workshop ? ` за мастер-класс «${e(workshop)}»${date ? `, ${date}` : ''}` : ''}.`,
      '',
      'По закону о фискализации такой чек должен содержать документ покупателя. Выберите документ и пришлите его номер: он нужен только для чеков студии.',
    ].join('\n'),
  documents,
  shapes,
  askNumber: (document: BuyerDocument) =>
    `Пришлите одним сообщением номер документа «${documents[document]}» (${shapes[document]}).`,
  problem: (problem: BuyerIdProblem, document: BuyerDocument) =>
    problem === 'checksum'
      ? 'Такого ПИБ не бывает: проверьте цифры и пришлите номер ещё раз.'
      : `Это не похоже на номер документа «${documents[document]}»: нужно ${shapes[document]}. Пришлите номер ещё раз.`,
  textOnly: 'Пришлите номер документа текстом.',
  buyerDone: '✅ Спасибо, номер принят: чек на возврат будет выдан.',
  buyerGone: 'Этот чек уже не ждёт документа.',
};
