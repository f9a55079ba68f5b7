import { CERTIFICATE_STATUS_LABELS } from '../../certificates';
import { formatDateTime, formatMoney, plural, type Instant } from '../../format';

/*
 * What the API says to a customer, in Russian: the Telegram invoice's texts, the messages a customer
 * shares from the mini-app and the certificate's printable card. en/api.ts and sr/api.ts say the same
 * by the same keys.
 */

/** Cuts a text to Telegram's limit, with an ellipsis. */
export const cut = (s: string, max: number) => ([...s].length <= max ? s : [...s].slice(0, max - 1).join('') + '…');

/** '23 November 2027': a day without the time (a certificate's expiry). */
export const longDate = (locale: string, when: Instant, timeZone: string) =>
  new Intl.DateTimeFormat(locale, { timeZone, day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(when));

export const api = {
  format: {
    money: (amount: number) => formatMoney(amount, 'ru'),
    /** A places certificate's places: '2 места на любой мастер-класс'. */
    places: (n: number) => `${n} ${plural(n, ['место', 'места', 'мест'])} на любой мастер-класс`,
    date: (when: Instant, timeZone: string) => longDate('ru', when, timeZone),
    dateTime: (when: Instant, timeZone: string) => formatDateTime(when, timeZone),
  },
  /** The Telegram invoice: title ≤ 32 characters, description ≤ 255, price label ≤ 32. */
  invoice: {
    title: (workshop: string) => cut(`Мастер-класс ${workshop}`, 32),
    description: (workshop: string, date: string, people: number, id: number) =>
      cut(`«${workshop}», ${date}, человек: ${people}. Запись №${id}.`, 255),
    label: (id: number) => cut(`Запись №${id}`, 32),
    /** A gift certificate bought in the mini-app; `amount` as format.money writes it. */
    certificateTitle: 'Подарочный сертификат',
    certificateDescription: (amount: string) =>
      cut(`Подарочный сертификат на мастер-класс: ${amount}. Код придёт в чат после оплаты.`, 255),
    certificateLabel: 'Сертификат',
  },
  /** The reasons the system cancels a booking for (stored in Russian, said in the reader's language). */
  cancelReasons: {
    holdExpired: 'Не оплачено вовремя',
    queuePassed: 'Место не освободилось',
  },
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
    money: (amount: number) => formatMoney(amount, 'ru'),
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

export type ApiTexts = typeof api;
