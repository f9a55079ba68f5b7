import { formatDateTime, formatMoney, pluralIn, type Instant } from '../../format';
import { LOCALES } from '../../language';
import { cut, longDate, type ApiTexts } from '../ru/api';

/* What the API says to a customer, in English (the same keys as ru/api.ts). */

const locale = LOCALES.en;

export const api: ApiTexts = {
  format: {
    money: (amount: number) => formatMoney(amount, 'en'),
    places: (n: number) => `${n} ${pluralIn(locale, n, { one: 'place', other: 'places' })} at any workshop`,
    date: (when: Instant, timeZone: string) => longDate(locale, when, timeZone),
    dateTime: (when: Instant, timeZone: string) => formatDateTime(when, timeZone, locale),
  },
  invoice: {
    title: (workshop: string) => cut(`Workshop ${workshop}`, 32),
    description: (workshop: string, date: string, people: number, id: number) =>
      cut(`“${workshop}”, ${date}, people: ${people}. Booking No. ${id}.`, 255),
    label: (id: number) => cut(`Booking No. ${id}`, 32),
    certificateTitle: 'Gift certificate',
    certificateDescription: (amount: string) =>
      cut(`A gift certificate for a workshop: ${amount}. The code arrives in the chat once paid.`, 255),
    certificateLabel: 'Certificate',
  },
  cancelReasons: {
    holdExpired: 'Not paid in time',
    queuePassed: 'No place came free',
  },
  share: {
    giftTitle: (workshop: string) => `A seat at the workshop “${workshop}”`,
    giftDescription: (date: string) => `${date}: tap to send`,
    giftText: (workshop: string, date: string, people: number) =>
      `🎁 I’m giving you my seat at the workshop “${workshop}”, ${date} (people: ${people}). ` +
      'Tap the button, enter your name and the seat is yours. The link works once, until the start.',
    giftButton: 'Accept the seat',
    certificateTitle: (amount: string) => `A gift certificate for ${amount}`,
    certificateDescription: (until: string) => `Valid until ${until}`,
    certificateText: (amount: string, until: string, code: string) =>
      `🎁 A gift certificate of the cooking studio for ${amount}, for you. Valid until ${until}.\n` +
      `Code: ${code}. Tap the button to book a workshop.`,
    certificateButton: 'Open the certificate',
  },
  card: {
    heading: 'Gift certificate',
    placesTitle: (places: string) => `A certificate for ${places}`,
    money: (amount: number) => formatMoney(amount, 'en'),
    placesOn: 'for',
    placesCount: (n: number) => `${n} ${pluralIn(locale, n, { one: 'place', other: 'places' })}`,
    anyWorkshop: 'at any workshop',
    quoted: (text: string) => `“${text}”`,
    recipient: 'For',
    balance: 'Balance',
    placesLeft: 'Left',
    code: 'Code',
    validUntil: 'Valid until',
    howTo: 'How to use it',
    openBot: 'Open the studio’s bot with the link or the QR code and choose a workshop.',
    enterCode: 'When booking, choose “I have a gift certificate” and enter the code.',
    paysAmount: 'The certificate pays for the booking up to its balance; the rest is paid as usual.',
    paysPlaces: 'The certificate pays one place for each person booked; the rest is paid as usual.',
    bookWith: 'Book with the certificate:',
    qr: 'QR code: a link to the studio’s bot',
    print: 'To print the certificate, press Ctrl+P (⌘P on a Mac).',
    status: {
      pending: 'Awaiting payment',
      active: 'Valid',
      used: 'Used up',
      expired: 'Expired',
      voided: 'Cancelled by the studio',
    },
  },
};
