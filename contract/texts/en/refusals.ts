import { formatMoney, pluralIn } from '../../format';
import { TELEGRAM_RSD } from '../../telegram-limits';
import { LOCALES } from '../../language';
import type { CustomerRefusals, DeadlineArgs } from '../ru/refusals';

/* The customers' refusals in English (the same codes as ru/refusals.ts). */

const locale = LOCALES.en;

export const refusals: CustomerRefusals = {
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
  deadline: ({ hours, contact }: DeadlineArgs) =>
    `A booking can be changed or cancelled up to ${hours} ${pluralIn(locale, hours, { one: 'hour', other: 'hours' })} ` +
    `before the workshop starts. ${contact.trim() ? `Contact the studio: ${contact.trim()}` : 'Please contact the studio.'}`,
  attended: 'Attendance is already marked: the booking can no longer be changed',
  notQueued: 'The booking is no longer in the queue.',
  notActive: 'The booking is not active: there is nothing to confirm',
  started: 'The workshop has already started',
  notYet: 'You can rate the workshop after it',
  notAttended: 'You can only rate a workshop you were booked for',
  ratingRange: 'A rating is from 1 to 5',
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
  paymentQueued: 'You are on the waiting list: payment will be needed once a place frees up',
  paymentExpired: 'The time to pay has run out and the booking was cancelled. Please book again',
  amountChanged: 'The amount to pay has changed. Open the booking and pay again',
  currency: 'Payments are accepted in dinars only',
  invoiceRefused: 'Telegram did not accept the invoice. Please pay at the studio or write to us',
  invoiceUnavailable: 'Telegram is not answering right now. Please try to pay again in a minute',
  // Getters: an amount is formatted by an Intl object, the first of which costs a process ~10 ms; made
  // when a text is said, not at start-up.
  get paymentBelowTelegramMinimum() {
    return `Telegram takes payments from ${formatMoney(TELEGRAM_RSD.min, 'en')}, so please pay the rest at the studio`;
  },
  get paymentAboveTelegramMaximum() {
    return `Telegram takes payments up to ${formatMoney(TELEGRAM_RSD.max, 'en')}, so please pay at the studio or by bank transfer`;
  },
  certificateMalformed: 'A certificate code has 12 letters and digits, e.g. ABCD-EFGH-JKLM',
  certificateNotFound: 'No certificate has this code',
  certificateExpired: 'The certificate has expired',
  certificateUsedUp: 'The certificate has been used up',
  certificateVoided: 'The certificate has been cancelled',
  certificatePending: 'The certificate has not been paid for yet',
  certificateTooMany: 'Too many attempts to enter a code. Please try again later',
  certificateNotPending: 'This certificate is already paid for or cancelled',
  certificateAmountChanged: 'The certificate’s amount has changed. Please start the purchase again',
  certificateTelegramOnly: 'A certificate can be bought from Telegram',
  certificateAmountNotOffered: 'Please choose an amount from the list',
  certificateBookingCancelled: 'The booking is cancelled: there is nothing to pay',
  certificatePaidAlready: 'The booking is already paid in full',
  certificateOtherCertificate: 'Another certificate already pays for this booking',
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
};
