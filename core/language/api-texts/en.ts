import { formatDateTime, pluralIn, type Instant } from '../../../contract/format';
import { LOCALES } from '../../../contract/language';
import { longDate, type ApiTexts } from './ru';

/* What the API says to a customer, in English (the same keys as ru.ts). */

const locale = LOCALES.en;
const cut = (s: string, max: number) => ([...s].length <= max ? s : [...s].slice(0, max - 1).join('') + '…');

export const en: ApiTexts = {
  format: {
    money: (amount: number) => `${new Intl.NumberFormat(locale).format(amount)} RSD`,
    places: (n: number) => `${n} ${pluralIn(locale, n, { one: 'place', other: 'places' })} at any workshop`,
    date: (when: Instant, timeZone: string) => longDate(locale, when, timeZone),
    dateTime: (when: Instant, timeZone: string) => formatDateTime(when, timeZone, locale),
  },
  refusals: {
    scheduleNotFound: 'Workshop not found',
    recordNotFound: 'Booking not found',
    workshopNotFound: 'Workshop not found',
    past: 'The workshop is over: the booking can no longer be changed',
    pastBooking: 'This workshop is over: it can no longer be booked',
    alreadyBooked: 'You are already booked for this workshop',
    cancelled: 'The booking is cancelled: restore it first',
    alreadyCancelled: 'The booking is already cancelled',
    notCancelled: 'The booking is not cancelled',
    sessionCancelled: 'The workshop is cancelled',
    hasFreeDates: 'This workshop has dates with free seats: book one of them in the app',
    attended: 'Attendance is already marked: the booking can no longer be changed',
    notQueued: 'The booking is no longer in the queue.',
    notActive: 'The booking is not active: there is nothing to confirm',
    started: 'The workshop has already started',
    notYet: 'You can rate the workshop after it',
    notAttended: 'You can only rate a workshop you were booked for',
    giftCancelled: 'A cancelled booking cannot be given away',
    telegramOnly: 'This is only available from Telegram',
    giftInvalid:
      'The link is no longer valid: the seat was given already, the booking was cancelled or the workshop has started',
    giftOwn: 'This is your own booking: send the link to a friend',
    giftFriendHasBooking: 'You already have a booking for this workshop, so you cannot accept the seat',
    consentRequired: 'To book, please confirm your consent to the processing of your personal data',
    noInvoices: 'Payment through Telegram is not set up',
    nothingToPay: 'There is nothing to pay for this booking',
    paymentCancelled: 'The booking is cancelled: no payment is needed',
    paymentExpired: 'The time to pay has run out and the booking was cancelled. Please book again',
    amountChanged: 'The amount to pay has changed. Open the booking and pay again',
    currency: 'Payments are accepted in dinars only',
    certificateMalformed: 'A certificate code has 12 letters and digits, e.g. ABCD-EFGH-JKLM',
    certificateNotFound: 'No certificate has this code',
    certificateExpired: 'The certificate has expired',
    certificateUsedUp: 'The certificate has been used up',
    certificateVoided: 'The certificate has been cancelled',
    certificatePending: 'The certificate has not been paid for yet',
    certificateTooMany: 'Too many attempts to enter a code. Please try again later',
    promoUnknown: 'No such promo code',
    promoNotYet: 'The promo code is not valid yet',
    promoExpired: 'The promo code has expired',
    promoWorkshop: 'The promo code is not valid for this workshop',
    promoUsedUp: 'The promo code has run out: all its uses are taken',
    promoUsedByYou: 'You have already used this promo code',
    promoFirstTimeOnly: 'The promo code is only for those booking with us for the first time',
    noTransfers: 'The studio does not take bank transfers: please pay at the studio',
    appOnly: 'Open the app from Telegram: your data belongs to your Telegram account',
    tooManyChanges: 'Too many booking changes in a minute. Please wait a minute and try again.',
    botNotConfigured: 'The Telegram bot is not set up on the server',
    telegramUnavailable: 'Telegram is unavailable right now, please try again later',
    shareNotActive: 'Only a paid, valid certificate can be shared',
  },
  deadline: (hours: number, contact: string) =>
    `A booking can be changed or cancelled up to ${hours} ${pluralIn(locale, hours, { one: 'hour', other: 'hours' })} ` +
    `before the workshop starts. ${contact.trim() ? `Contact the studio: ${contact.trim()}` : 'Please contact the studio.'}`,
  invoice: {
    title: (workshop: string) => cut(`Workshop ${workshop}`, 32),
    description: (workshop: string, date: string, people: number, id: number) =>
      cut(`“${workshop}”, ${date}, people: ${people}. Booking No. ${id}.`, 255),
    label: (id: number) => cut(`Booking No. ${id}`, 32),
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
    money: (amount: number) => `${new Intl.NumberFormat(locale).format(amount)} RSD`,
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
