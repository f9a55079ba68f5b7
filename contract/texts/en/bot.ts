import { formatDateTime, formatMoney, formatShortDateTime, pluralIn, type Instant } from '../../format';
import { LOCALES } from '../../language';
import { escapeHtml as e, fullName } from '../html';
import type { BotTexts } from '../ru/bot';
import type { ErasureMoneyText } from '../ru/bot/replies';
import { receipts } from './bot-receipts';

/* The customer's texts in English; staff texts stay Russian (the studio's language). */

const locale = LOCALES.en;
const q = (title: string) => `“${e(title)}”`;
const rsd = (amount: number) => formatMoney(amount, 'en');
const hours = (n: number) => `${n} ${pluralIn(locale, n, { one: 'hour', other: 'hours' })}`;
const days = (n: number) => `${n} ${pluralIn(locale, n, { one: 'day', other: 'days' })}`;
const people = (n: number) => `${n} ${pluralIn(locale, n, { one: 'person', other: 'people' })}`;

const common = {
  dateTime: (when: Instant, timeZone: string) => formatDateTime(when, timeZone, locale),
  shortDateTime: (when: Instant, timeZone: string) => formatShortDateTime(when, timeZone, locale),
  state: { ACTIVE: '✅ Booked', QUEUED: '⏳ In the queue', CANCELLED: '❌ Cancelled' },
  moreLines: (n: number) =>
    `… and ${n} more ${pluralIn(locale, n, { one: 'line', other: 'lines' })}: see the schedule.`,
  error: 'Something went wrong. Please try again a little later.',
};

const queueNote = (position: number | null) =>
  `Your place in the queue: ${position ?? '—'}. We will write as soon as a seat is free.`;

const customer: BotTexts['customer'] = {
  schedule: {
    date: (date: string) => `📅 ${date}`,
    address: (title: string, description: string | null) => `📍 ${e(title)}${description ? `, ${e(description)}` : ''}`,
    mapLink: (url: string) => `🗺 <a href="${e(url)}">Open the map</a>`,
    mapText: (text: string) => `🗺 ${e(text)}`,
  },
  people: (n: number) => `👥 People: ${n}`,
  queueNote,
  seeYou: 'See you there!',
  booked: (workshop: string) => `✅ You are booked for the workshop ${q(workshop)}!`,
  queued: (workshop: string) => `⏳ The workshop ${q(workshop)} has no free seats right now, so you are in the queue.`,
  promoted: (workshop: string) => `🎉 A seat is free! You are booked for the workshop ${q(workshop)}.`,
  cancelled: (workshop: string) => `❌ Your booking for the workshop ${q(workshop)} is cancelled.`,
  cancelReason: (reason: string) => `Reason: ${e(reason)}`,
  restoreHint: 'Changed your mind? You can restore the booking on its page.',
  restored: (workshop: string) => `✅ Your booking for the workshop ${q(workshop)} is restored.`,
  restoredQueued: (workshop: string) =>
    `↩️ Your booking for the workshop ${q(workshop)} is restored, but there are no free seats right now, so you are in the queue.`,
  peopleChanged: (workshop: string, before: number, after: number) =>
    `👥 The number of people in your booking for the workshop ${q(workshop)} changed from ${before} to ${after}.`,
  peopleMovedToQueue: (position: number | null) =>
    `There are not enough free seats, so the booking moved to the queue. ${queueNote(position)}`,
  seatsYours: 'The seats are yours.',
  scheduleChanged: (workshop: string, changed: { date: boolean; address: boolean }) => {
    const what = changed.date && changed.address ? 'date and address' : changed.address ? 'address' : 'date';
    return `✏️ The workshop ${q(workshop)} has a new ${what}. The current details:`;
  },
  stillQueued: (position: number | null) => `You are in the queue. ${queueNote(position)}`,
  changeHint: 'If the new time or place does not suit you, you can cancel the booking on its page.',
  scheduleDeleted: (workshop: string, date: string) =>
    `😔 The workshop ${q(workshop)} on ${date} is cancelled, and so is your booking for it. We are sorry!`,
  pickAnother: 'You can pick another workshop in the app.',
  sessionCancelled: (workshop: string, date: string) =>
    `😔 The workshop ${q(workshop)} on ${date} is cancelled, and so is your booking for it. We are sorry!`,
  otherDatesHint: 'You can pick another date of this workshop in the app.',
  minPeopleReason: 'Reason: not enough people signed up for it to take place.',
  manualReminder: (workshop: string) => `🔔 A reminder about the workshop ${q(workshop)}!`,
  waitingForYou: 'We are looking forward to seeing you!',
  reminder: (workshop: string, hoursBefore: number) => {
    const when =
      hoursBefore >= 24 && hoursBefore % 24 === 0
        ? hoursBefore === 24
          ? 'tomorrow'
          : `in ${days(hoursBefore / 24)}`
        : `in ${hours(hoursBefore)}`;
    return `🔔 A reminder: the workshop ${q(workshop)} is ${when}!`;
  },
  reminderAsk: 'Will you come?',
  thanks: (workshop: string) => `🙏 Thank you for coming to the workshop ${q(workshop)}!`,
  rateAsk: 'How was it? Please rate it from 1 to 5:',
  newDate: (workshop: string) => `🗓 A new date of the workshop ${q(workshop)}!`,
  newDateHint: 'You asked us to tell you: book while there are seats.',
  givenAway: (workshop: string, receiver: string) =>
    `🎁 You gave your seat at the workshop ${q(workshop)} away: the booking is now in the name of ${e(receiver)}.`,
  received: (giver: string, workshop: string) => `🎁 ${e(giver)} gives you a seat at the workshop ${q(workshop)}!`,
  receivedQueued: (position: number | null) => `The booking is in the queue for now. ${queueNote(position)}`,
  buttons: {
    myRecord: 'My booking',
    apply: 'Book a workshop',
    pickAnother: 'Pick another workshop',
    addToCalendar: '📅 Add to calendar',
    coming: '✅ I will come',
    notComing: '❌ I cannot come',
    rating: (n: number) => `${n} ⭐`,
    bookAgain: 'Book again',
    book: 'Book',
    otherDates: 'Other dates',
  },
};

const replies: BotTexts['replies'] = {
  commands: [
    { command: 'start', description: 'Start and book a cooking workshop' },
    { command: 'my', description: 'My bookings' },
    { command: 'cancel', description: 'Cancel a booking' },
    { command: 'language', description: 'Language' },
    { command: 'help', description: 'Help' },
    { command: 'mydata', description: 'My data: what is stored about me' },
    { command: 'forget', description: 'Delete my data' },
  ],
  menuButton: 'Book',
  start: (businessName: string, withButton: boolean) =>
    [
      `Hello! This is the bot of “${e(businessName)}” 👩‍🍳`,
      '',
      'Here you can book a cooking workshop, see your bookings and cancel a booking.',
      ...(withButton ? ['', 'Tap “Book a workshop” to choose a date.'] : []),
      '',
      '/my — my bookings',
      '/cancel — cancel a booking',
      '/language — language',
      '/help — help',
    ].join('\n'),
  help: (businessName: string) =>
    [
      `<b>${e(businessName)}</b>: booking cooking workshops.`,
      '',
      '/start — book a workshop',
      '/my — my upcoming bookings (each has its own button: change the number of people, cancel, restore)',
      '/cancel — cancel a booking',
      '/language — the language of the bot',
      '/mydata — what data of yours is stored (with a JSON file)',
      '/forget — delete your data',
      '/help — this help',
      '',
      'When you are booked, I will send a confirmation; when there are no seats, you join the queue, and I will write as soon as a seat is free.',
    ].join('\n'),
  unknown: 'I understand the commands /start, /my, /cancel, /language and /help.',
  buttonGone: 'This button no longer works. Please send the command again.',
  error: common.error,
  language: {
    ask: 'Choose the language of the bot:',
    set: 'Done: I will write to you in English.',
    setToast: 'English',
  },
  my: {
    empty: 'You have no upcoming bookings yet.',
    head: 'Your upcoming bookings:',
    item: (i: number, workshop: string, date: string, state: string, peopleCount: number) =>
      `${i + 1}. ${q(workshop)}, ${date}\n    ${state} · ${people(peopleCount)}`,
    button: (i: number, workshop: string, shortDate: string) => `${i + 1}. ${workshop}, ${shortDate}`,
    queuedAt: (position: number) => `${common.state.QUEUED} (place ${position})`,
    leaveQueueButton: (i: number) => `Leave the queue: ${i + 1}`,
  },
  cancel: {
    none: 'You have no upcoming bookings that can be cancelled.',
    pick: 'Which booking do you want to cancel?',
    pickButton: (workshop: string, shortDate: string) => `${workshop}, ${shortDate}`,
    abortButton: 'Do not cancel',
    pickAgain: 'Pick a booking with a button above or tap “Do not cancel”.',
    notYours: 'This booking is not available. Pick a booking with a button above.',
    askReason: (workshop: string, date: string) =>
      `Cancelling the booking for ${q(workshop)}, ${date}.\n\nPlease write the reason for cancelling in one message.`,
    reasonAgain: 'Please write the reason for cancelling as text (up to 1000 characters).',
    confirm: (workshop: string, date: string, reason: string) =>
      `Cancel the booking for ${q(workshop)}, ${date}?\n\nReason: ${e(reason)}`,
    yesButton: 'Yes, cancel',
    noButton: 'No',
    confirmAgain: 'Tap “Yes, cancel” or “No”.',
    done: '❌ The booking is cancelled. If you change your mind, you can restore it on the booking page (/my).',
    doneToast: 'Booking cancelled',
    kept: 'All right, the booking stays.',
    failed: (detail: string) => `Could not cancel the booking: ${e(detail)}`,
  },
  link: {
    done: (email: string) =>
      `✅ Done! Notifications for ${e(email)} will now come to this chat.\nYou can turn them off in the profile (Настройки → Профиль).`,
    invalid: 'The link is invalid or has expired. Get a new one in the profile (Настройки → Профиль).',
  },
  journey: {
    notYours: 'This booking is not available.',
    confirmedToast: 'Thank you, see you there!',
    confirmed: (workshop: string, date: string) =>
      `✅ You confirmed that you will come to the workshop ${q(workshop)}, ${date}.\n\nSee you there!`,
    cantCome: (workshop: string, date: string) =>
      `Cannot come to the workshop ${q(workshop)}, ${date}?\n\nYou can cancel the booking or give your seat to a friend.`,
    cancelButton: 'Cancel the booking?',
    giftButton: '🎁 Give my seat to a friend',
    backButton: '← Back',
    cancelledToast: 'Booking cancelled',
    cancelled: (workshop: string, date: string) =>
      `❌ The booking for the workshop ${q(workshop)}, ${date}, is cancelled.\n\nIf you change your mind, you can restore it on the booking page.`,
    giftLink: (workshop: string, date: string, link: string) =>
      [
        `🎁 A link for your friend to the workshop ${q(workshop)}, ${date}:`,
        '',
        e(link),
        '',
        'The link works once and until the workshop starts. Your friend opens it, enters their name and takes your seat; we will tell you when that happens.',
      ].join('\n'),
    giftSendButton: '📨 Send to a friend',
    giftShareText: (workshop: string) => `I am giving you my seat at the workshop “${workshop}”`,
    giftStart: '🎁 Someone is giving you a seat at a workshop! Tap “Accept the seat” to see the details and confirm.',
    giftStartNoApp:
      '🎁 Someone is giving you a seat at a workshop, but the app is not available right now. Please try later.',
    giftAcceptButton: 'Accept the seat',
    ratedToast: 'Thank you for the rating!',
    rated: (workshop: string, rating: number) =>
      `🙏 Thank you for rating the workshop ${q(workshop)}: ${'⭐'.repeat(rating)}\n\nWe will be glad to see you again!`,
    leaveQueueAsk: (workshop: string, date: string) => `Leave the queue for the workshop ${q(workshop)}, ${date}?`,
    leaveQueueYesButton: 'Yes, leave the queue',
    leaveQueueNoButton: 'No',
    leaveQueueKept: 'All right, you stay in the queue.',
    notQueued: 'The booking is no longer in the queue.',
    leftQueueToast: 'You left the queue',
    leftQueue: (workshop: string, date: string) => `You left the queue for the workshop ${q(workshop)}, ${date}.`,
    offerHead: 'These workshops have no free dates right now. Shall I write when new ones appear?',
    offerButton: (title: string) =>
      `🔔 Tell me about new dates: ${title.length > 40 ? `${title.slice(0, 39)}…` : title}`,
    subscribedToast: 'Done! I will write about new dates',
    subscribed: (title: string) =>
      `🔔 Done! As soon as there is a new date of the workshop${title ? ` ${q(title)}` : ''}, I will write.`,
  },
  personalData: {
    title: '<b>Your data with us</b>',
    telegramId: (id: number) => `Telegram ID: <code>${id}</code>`,
    staffAccount: (email: string) => `Staff account: ${e(email)}`,
    bookings: (n: number) => (n ? `📋 Bookings (${n}):` : '📋 No bookings.'),
    booking: (i: number, workshop: string, date: string, state: string) =>
      `${i + 1}. ${q(workshop)}, ${date}: ${common.state[state as keyof typeof common.state] ?? e(state)}`,
    person: (b: { name: string; last_name: string | null; telegram_login: string | null; people_count: number }) =>
      [
        fullName(b),
        ...(b.telegram_login ? [`@${e(b.telegram_login.replace(/^@/, ''))}`] : []),
        people(b.people_count),
      ].join(' · '),
    allergy: (type: string | null) => `allergy: ${e(type ?? 'yes')}`,
    comment: (comment: string) => `comment: ${e(comment)}`,
    confirmed: 'answered “I will come” to the reminder',
    rating: (rating: number) => `rating: ${rating}`,
    subscriptions: (workshops: string[]) =>
      workshops.length
        ? `🔔 Tell me about new dates: ${workshops.map((w) => q(w)).join(', ')}`
        : '🔔 No subscriptions to new dates.',
    staffNote: (note: string) => `📝 The studio’s note about you: ${e(note)}`,
    fileNote: 'Everything that is stored (with the history of changes of the bookings) is in the file below.',
    forgetHint: 'Delete your data: /forget',
    fileName: 'mydata.json',
    fileCaption: 'Your data in JSON format',
    forgetAsk: (upcoming: number, staffEmail: string | null, money: ErasureMoneyText) =>
      [
        '<b>Delete your personal data?</b>',
        '',
        upcoming > 0
          ? `Your upcoming bookings (${upcoming}) will be cancelled, and the seats go to the next in the queue.`
          : 'You have no upcoming bookings.',
        'In all your bookings the name, Telegram account, comment and allergy details will be deleted; so will your subscriptions to new dates, the studio’s note about you and unfinished conversations with the bot.',
        'The number of people and the dates stay in the studio’s statistics without your name.',
        ...(money.credit > 0 ? [`Your studio balance: ${rsd(money.credit)}.`] : []),
        ...(money.paid > 0 ? [`Paid for upcoming bookings: ${rsd(money.paid)}.`] : []),
        ...(money.owed > 0
          ? [
              `After the deletion the studio will owe you ${rsd(money.owed)} but will no longer know it is you. To get the money, ask the studio to return it first, then delete your data.`,
            ]
          : []),
        ...(staffEmail ? [`Staff notifications for ${e(staffEmail)} will stop coming to this chat.`] : []),
        '',
        'This cannot be undone.',
      ].join('\n'),
    forgetYes: 'Yes, delete my data',
    forgetNo: 'No, keep it',
    forgetDone: (cancelled: number, owed: number) =>
      [
        '🗑 Done: your personal data is deleted.',
        ...(cancelled > 0 ? [`Upcoming bookings cancelled: ${cancelled}.`] : []),
        ...(owed > 0 ? [`The studio owes you ${rsd(owed)}: write to the studio to get it back.`] : []),
        'To book again, just open the bot: /start',
      ].join('\n'),
    forgetDoneToast: 'Data deleted',
    forgetKept: 'All right, nothing is deleted.',
  },
};

const money: BotTexts['money'] = {
  price: (amount: number) => `💰 Price: ${rsd(amount)}`,
  paid: (amount: number) => `Paid: ${rsd(amount)}`,
  fromCredit: (amount: number) => `${rsd(amount)} was taken from your studio balance.`,
  payBy: (amount: number, until: string) =>
    `To keep the seats, pay ${rsd(amount)} by ${until}, otherwise the booking is cancelled.`,
  dueAtStudio: (amount: number) => `To pay at the studio: ${rsd(amount)}.`,
  toCredit: (amount: number) =>
    `The ${rsd(amount)} you paid went to your studio balance: it counts toward your next booking.`,
  refundOwed: (amount: number) => `The studio will return ${rsd(amount)} to you.`,
  nothingOwed: 'Nothing is to be paid or returned for this booking.',
  received: (amount: number, workshop: string) =>
    `✅ The payment of ${rsd(amount)} for the workshop ${q(workshop)} has arrived. Thank you!`,
  receivedLate: (amount: number, workshop: string) =>
    `The payment of ${rsd(amount)} arrived, but the booking for the workshop ${q(workshop)} no longer waits for it: the money went to your studio balance.`,
  unbooked: (amount: number, balance: number) =>
    `Your payment of ${rsd(amount)} arrived, but what it was for no longer exists: the money went to your studio balance (now ${rsd(balance)}). It counts toward your next booking; to get it back, write to the studio.`,
  payButton: (amount: number) => `💳 Pay ${rsd(amount)}`,
  holdExpiredHint: 'The seats are free for others again. You can book again while there are seats.',
  invoiceTitle: 'Payment for a workshop',
  checkFailed: 'Could not check the booking. Please try again in a minute',
};

const business: BotTexts['business'] = {
  head: 'Hello! This is the studio’s automatic answer: a person will reply as soon as they are free.',
  sessionsHead: 'The next workshops with free seats:',
  session: (workshop: string, date: string, seats: number) =>
    `• ${q(workshop)}, ${date}: ${seats} ${pluralIn(locale, seats, { one: 'seat', other: 'seats' })}`,
  noSessions: 'There are no free seats right now, but new dates come up regularly.',
  bookHint: 'You can book in the app with the button below.',
  button: 'Book a workshop',
};

const places = (n: number) => `${n} ${pluralIn(locale, n, { one: 'place', other: 'places' })}`;
const certificates: BotTexts['certificates'] = {
  ready: (amount) => `🎁 Your gift certificate for ${rsd(amount)} is ready!`,
  readyPlaces: (n) => `🎁 Your gift certificate for ${places(n)} at any workshop is ready!`,
  code: (code) => `Code: <code>${e(code)}</code>`,
  recipient: (name) => `For: ${e(name)}`,
  greeting: (text) => `“${e(text)}”`,
  balance: (amount) => `Balance: ${rsd(amount)}`,
  balancePlaces: (n) => `Left: ${places(n)} at any workshop`,
  validUntil: (until) => `Valid until ${until}`,
  howToUse:
    'To pay for a workshop with it, choose “I have a gift certificate” when booking in the app and enter the code. To give it, tap “Give the certificate” or forward this message.',
  opened: 'Gift certificate',
  openedHint: 'Book a workshop in the app: the certificate pays the booking up to its balance.',
  openedHintPlaces: 'Book a workshop in the app: the certificate pays one place for each person in the booking.',
  expiring: (code, amount, until) =>
    `⏳ Your gift certificate ${e(code)} still holds ${rsd(amount)}. It is valid until ${until}: book a workshop in time!`,
  expiringPlaces: (code, n, until) =>
    `⏳ Your gift certificate ${e(code)} still has ${places(n)} at any workshop. It is valid until ${until}: book in time!`,
  share: (amount, code) => `🎁 A gift certificate for ${rsd(amount)} at a workshop, for you! Code: ${code}`,
  sharePlaces: (n, code) => `🎁 A gift certificate for ${places(n)} at any workshop, for you! Code: ${code}`,
  buttons: { card: '🎁 Open the certificate', book: 'Book with the certificate', share: '📨 Give the certificate' },
};

export const bot: BotTexts = { common, customer, replies, money, business, certificates, receipts };
