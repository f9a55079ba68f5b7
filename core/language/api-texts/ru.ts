import { CERTIFICATE_MSG, CERTIFICATE_STATUS_LABELS } from '../../../contract/certificates';
import { formatDateTime, formatPrice, plural, type Instant } from '../../../contract/format';
import { CONSENT_REQUIRED } from '../../../contract/personal-data';
import { ALLOWED_MSG } from '../../booking/allowed';
import { deadlineMessage } from '../../booking/change-deadline';
import { GIFT_MSG } from '../../journey/seat-gifts';
import { MSG } from '../../kernel/messages';
import { PROMO_MSG } from '../../ledger/discount';
import { INVOICE_TEXTS, MONEY_MSG } from '../../payments/telegram';

/*
 * What the API says to a customer, in Russian: the refusals of the customer endpoints (their {"detail"}),
 * the Telegram invoice's texts and the messages a customer shares from the mini-app. The refusals are
 * the domain's own constants, so the text a staff member reads and the one a Russian customer reads are
 * one; en.ts and sr.ts say the same by the same keys.
 */

/** '23 November 2027': a day without the time (a certificate's expiry). */
export const longDate = (locale: string, when: Instant, timeZone: string) =>
  new Intl.DateTimeFormat(locale, { timeZone, day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(when));

/** Refusals said by a route itself, not by the domain. */
export const ROUTE_REFUSALS = {
  noTransfers: 'Студия не принимает банковские переводы: оплатите на месте',
  appOnly: 'Откройте приложение из Telegram: данные привязаны к вашему аккаунту',
  tooManyChanges: 'Слишком много изменений записи за минуту. Подождите минуту и попробуйте снова.',
  botNotConfigured: 'Telegram-бот не настроен на сервере',
  telegramUnavailable: 'Telegram сейчас недоступен, попробуйте позже',
  shareNotActive: 'Поделиться можно только оплаченным действующим сертификатом',
} as const;

const refusals = {
  scheduleNotFound: MSG.scheduleNotFound,
  recordNotFound: MSG.recordNotFound,
  workshopNotFound: MSG.workshopNotFound,
  past: MSG.past,
  pastBooking: MSG.pastBooking,
  alreadyBooked: MSG.alreadyBooked,
  cancelled: MSG.cancelled,
  alreadyCancelled: MSG.alreadyCancelled,
  notCancelled: MSG.notCancelled,
  sessionCancelled: MSG.sessionCancelled,
  hasFreeDates: MSG.hasFreeDates,
  attended: ALLOWED_MSG.attendedCustomer,
  notQueued: ALLOWED_MSG.notQueued,
  notActive: ALLOWED_MSG.notActive,
  started: ALLOWED_MSG.started,
  notYet: ALLOWED_MSG.notYet,
  notAttended: ALLOWED_MSG.notAttended,
  giftCancelled: ALLOWED_MSG.giftCancelled,
  telegramOnly: ALLOWED_MSG.telegramOnly,
  giftInvalid: GIFT_MSG.invalid,
  giftOwn: GIFT_MSG.own,
  giftFriendHasBooking: GIFT_MSG.friendHasBooking,
  consentRequired: CONSENT_REQUIRED,
  noInvoices: MONEY_MSG.noInvoices,
  nothingToPay: MONEY_MSG.nothingToPay,
  paymentCancelled: MONEY_MSG.cancelled,
  paymentExpired: MONEY_MSG.expired,
  amountChanged: MONEY_MSG.amountChanged,
  currency: MONEY_MSG.currency,
  certificateMalformed: CERTIFICATE_MSG.malformed,
  certificateNotFound: CERTIFICATE_MSG.notFound,
  certificateExpired: CERTIFICATE_MSG.expired,
  certificateUsedUp: CERTIFICATE_MSG.usedUp,
  certificateVoided: CERTIFICATE_MSG.voided,
  certificatePending: CERTIFICATE_MSG.pending,
  certificateTooMany: CERTIFICATE_MSG.tooMany,
  promoUnknown: PROMO_MSG.unknown,
  promoNotYet: PROMO_MSG.notYet,
  promoExpired: PROMO_MSG.expired,
  promoWorkshop: PROMO_MSG.workshop,
  promoUsedUp: PROMO_MSG.usedUp,
  promoUsedByYou: PROMO_MSG.usedByYou,
  promoFirstTimeOnly: PROMO_MSG.firstTimeOnly,
  ...ROUTE_REFUSALS,
};

export const ru = {
  format: {
    money: (amount: number) => formatPrice(amount),
    /** A places certificate's places: '2 места на любой мастер-класс'. */
    places: (n: number) => `${n} ${plural(n, ['место', 'места', 'мест'])} на любой мастер-класс`,
    date: (when: Instant, timeZone: string) => longDate('ru', when, timeZone),
    dateTime: (when: Instant, timeZone: string) => formatDateTime(when, timeZone),
  },
  refusals: refusals as Record<keyof typeof refusals, string>,
  /** The change deadline: hours before the start, and the studio's contact (may be empty). */
  deadline: (hours: number, contact: string) => deadlineMessage({ change_deadline_hours: hours, contact }),
  invoice: INVOICE_TEXTS,
  share: {
    giftTitle: (workshop: string) => `Место на мастер-класс «${workshop}»`,
    giftDescription: (date: string) => `${date}: нажмите, чтобы отправить`,
    giftText: (workshop: string, date: string, people: number) =>
      `🎁 Дарю тебе своё место на мастер-класс «${workshop}», ${date} (человек: ${people}). ` +
      'Нажми кнопку, введи своё имя — и место твоё. Ссылка одноразовая и действует до начала.',
    giftButton: 'Принять место',
    certificateTitle: (amount: string) => `Подарочный сертификат на ${amount}`,
    certificateDescription: (until: string) => `Действует до ${until}`,
    certificateText: (amount: string, until: string, code: string) =>
      `🎁 Дарю тебе подарочный сертификат кулинарной студии на ${amount}. Действует до ${until}.\n` +
      `Код: ${code}. Нажми кнопку, чтобы записаться на мастер-класс.`,
    certificateButton: 'Открыть сертификат',
  },
  /** The certificate's printable card (/gift/<code>). */
  card: {
    heading: 'Подарочный сертификат',
    /** The page's title of a places certificate; `places` as format.places writes it. */
    placesTitle: (places: string) => `Сертификат на ${places}`,
    money: (amount: number) => `${amount.toLocaleString('ru-RU').replace(/\u00a0/g, ' ')} дин.`,
    /** A places certificate's value, in three parts: 'на' · '2 места' · 'на любой мастер-класс'. */
    placesOn: 'на',
    placesCount: (n: number) => `${n} ${plural(n, ['место', 'места', 'мест'])}`,
    anyWorkshop: 'на любой мастер-класс',
    /** The greeting as staff typed it, in the language's quotation marks. */
    quoted: (text: string) => `«${text}»`,
    recipient: 'Для',
    balance: 'Остаток',
    placesLeft: 'Осталось',
    code: 'Код',
    validUntil: 'Действует до',
    howTo: 'Как воспользоваться',
    openBot: 'Откройте бота студии по ссылке или QR-коду и выберите мастер-класс.',
    /** Names the mini-app's own button for a certificate. */
    enterCode: 'При записи выберите «У меня есть сертификат» и введите код.',
    paysAmount: 'Сертификат оплатит запись на сумму остатка, остальное — как обычно.',
    paysPlaces: 'Сертификат оплатит по месту на каждого участника записи, остальное — как обычно.',
    bookWith: 'Записаться с сертификатом:',
    qr: 'QR-код: ссылка на бота студии',
    print: 'Чтобы распечатать сертификат, нажмите Ctrl+P (⌘P на Mac).',
    status: CERTIFICATE_STATUS_LABELS,
  },
};

export type ApiTexts = typeof ru;
