import { staffMoneyMessage } from './money-messages';
import type { OutgoingMessage } from './outgoing-message';
import type { AttendanceValue, PersonalDataExport } from '../contract';
import { daysBetween } from '../contract/format';
import type {
  CustomerNotification,
  DigestPayload,
  MoneySnapshot,
  Notification,
  ScheduleSnapshot,
  StaffFiscalPayload,
  StaffNotification,
} from '../core/notify/notifications';
import { HOLD_EXPIRED_REASON, invoiceParams, QUEUE_PASSED_REASON } from '../core/payments/telegram';
import { payNow } from '../core/ledger/price';
import { telegramCharge } from '../contract/telegram-limits';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../contract/money';
import { applyButton, inlineKeyboard, recordButton, urlButton, webAppButton } from './keyboards/webapp';
import { ratingButtons, reminderButton } from './keyboards/journey';
import type { RenderedMessage } from './outbox';
import { minPeopleCard, sessionCancelledMessage } from './min-people-messages';
import { MIN_PEOPLE_REASON } from '../core/schedules/min-people';
import { certificateMessage, staffCertificateMessage } from './certificate-messages';
import { receiptNotificationMessage } from './receipt-messages';
import { texts, textsFor, type BotTexts } from './texts';
import { DEFAULT_LANGUAGE, type Language } from '../contract/language';
import { customerLanguage } from '../core/language/customer-language';
import { apiTexts, sayCancelReason } from '../core/language/api-texts';
import type { Executor } from '../db/database';

/*
 * What the bot sends, put together from the text catalogue (bot/texts): the outbox notifications
 * (rendered at delivery time from the row's kind and payload) and the bot's longer views (/mydata,
 * /today). Here is which lines a message has, in which order, and its buttons; the words are the
 * catalogue's, which escapes every value that comes from users or staff (HTML parse mode).
 */

const { common, staff: S } = texts;

/** The catalogue of the recipient's language (customers); staff read Russian. */
const textsOf = (rc: RenderContext): BotTexts => textsFor(rc.language ?? DEFAULT_LANGUAGE);

export interface RenderContext {
  publicUrl: string;
  timezone: string;
  businessName: string;
  /** The path of a booking's signed .ics, for "Добавить в календарь". */
  calendarPath(recordId: number): string;
  /** Telegram payments' provider token: confirmations are followed by an invoice to pay (absent: none). */
  paymentProviderToken?: string;
  /** The recipient's language (customers' messages); Russian when absent. */
  language?: Language;
}

export type { OutgoingMessage };

/** Telegram's limit is 4096 characters of text; keep a margin for the markup. */
const MAX_TEXT = 3900;

const isHttpUrl = (u: string) => /^https?:\/\/\S+$/i.test(u);

function scheduleLines(s: ScheduleSnapshot, rc: RenderContext): string[] {
  const { customer: C, common } = textsOf(rc);
  return [
    C.schedule.date(common.dateTime(s.date, rc.timezone)),
    C.schedule.address(s.address_title, s.address_description),
    isHttpUrl(s.map_link) ? C.schedule.mapLink(s.map_link) : C.schedule.mapText(s.map_link),
  ];
}

/** Joins lines, dropping whole lines from the end (with a note) when the text would be too long. */
function fit(lines: string[], { common } = texts): string {
  const out: string[] = [];
  let length = 0;
  for (let i = 0; i < lines.length; i++) {
    if (length + lines[i].length + 1 > MAX_TEXT) {
      out.push(common.moreLines(lines.length - i));
      break;
    }
    out.push(lines[i]);
    length += lines[i].length + 1;
  }
  return out.join('\n');
}

/**
 * The booking's money under a message: the price, what is paid, and what to pay by when; a cancelled
 * one, where its money went. `listed` (/my) always shows the price and what is due; a message leaves
 * them out while nothing was paid or asked in advance (settled at the studio).
 */
export function moneyLines(m: MoneySnapshot | undefined, state: string, rc: RenderContext, listed = false): string[] {
  const { money: M, common } = textsOf(rc);
  if (!m || m.price <= 0) return [];
  // A cancellation always says where the money went, even when there was none.
  if (state === 'CANCELLED') {
    const outcome = [
      ...(m.to_credit > 0 ? [M.toCredit(m.to_credit)] : []),
      ...(m.balance < 0 ? [M.refundOwed(-m.balance)] : []),
    ];
    return outcome.length > 0 ? outcome : [M.nothingOwed];
  }
  // Nothing paid and nothing asked in advance: settled at the studio (a confirmation still names the price).
  if (!listed && m.amount_paid === 0 && !m.pay_by) return [];
  const lines = [M.price(m.price)];
  if (m.paid_by_credit > 0) lines.push(M.fromCredit(m.paid_by_credit));
  if (m.amount_paid > 0) lines.push(M.paid(m.amount_paid));
  if (state !== 'ACTIVE') return lines;
  if (m.pay_by && m.required_now > m.amount_paid)
    lines.push(M.payBy(m.required_now - m.amount_paid, common.dateTime(m.pay_by, rc.timezone)));
  else if (m.balance > 0) lines.push(M.dueAtStudio(m.balance));
  return lines;
}

/** A Telegram invoice for what the booking should pay now, when payments are on (the pay button). */
function invoiceCall(n: CustomerNotification, rc: RenderContext): RenderedMessage[] {
  const m = n.payload.money;
  const r = n.payload.record;
  if (!rc.paymentProviderToken || !m || r.state !== 'ACTIVE') return [];
  if (payNow(m) <= 0) return [];
  // Within Telegram's limits for one payment, as the invoice link asks; else the money lines say what is due.
  const charge = telegramCharge(payNow(m), m.balance);
  if ('refusal' in charge) return [];
  const amount = charge.amount;
  const s = n.payload.schedule;
  // The invoice in the recipient's language, as the message it follows.
  const params = invoiceParams(
    { id: r.record_id, people_count: r.people_count },
    s,
    amount,
    textsOf(rc).common.dateTime(s.date, rc.timezone),
    apiTexts(rc.language ?? DEFAULT_LANGUAGE).invoice,
  );
  return [{ method: 'sendInvoice', params: { ...params, provider_token: rc.paymentProviderToken } }];
}

function customerMessage(n: CustomerNotification, rc: RenderContext): RenderedMessage {
  const money = moneyLines(n.payload.money, n.payload.record.state, rc);
  const withInvoice = (m: OutgoingMessage): RenderedMessage => {
    const invoice = invoiceCall(n, rc);
    return invoice.length ? ([m, ...invoice] as RenderedMessage) : m;
  };
  return withInvoice(customerText(n, rc, money));
}

function customerText(n: CustomerNotification, rc: RenderContext, money: string[]): OutgoingMessage {
  const T = textsOf(rc);
  const { customer: C, money: M, common } = T;
  const { schedule: s, record: r } = n.payload;
  const w = s.workshop_title;
  // A reason the system gave is said in the customer's language; one a person typed, as typed.
  const reason = (text: string) => C.cancelReason(sayCancelReason(text, rc.language ?? DEFAULT_LANGUAGE));
  const myRecord = inlineKeyboard([[recordButton(rc.publicUrl, r.record_id, C.buttons.myRecord)]]);
  // Once the seats are theirs, the confirmation offers the date for the customer's calendar.
  const withCalendar = inlineKeyboard([
    [recordButton(rc.publicUrl, r.record_id, C.buttons.myRecord)],
    [urlButton(rc.publicUrl, C.buttons.addToCalendar, rc.calendarPath(r.record_id))],
  ]);
  const details = [...scheduleLines(s, rc), C.people(r.people_count)];
  const msg = (head: string[], tail: string[] = [], markup = myRecord, lines = money): OutgoingMessage => ({
    text: fit(
      [...head, '', ...details, ...(lines.length ? ['', ...lines] : []), ...(tail.length ? ['', ...tail] : [])],
      T,
    ),
    reply_markup: markup,
  });
  // A confirmation names the price even when it is settled at the studio.
  const price = n.payload.money?.price ?? 0;
  const confirmed = money.length === 0 && price > 0 ? [M.price(price)] : money;
  switch (n.kind) {
    case 'record.booked':
      return msg([C.booked(w)], [C.seeYou], withCalendar, confirmed);
    case 'record.queued':
      return msg([C.queued(w), C.queueNote(r.queue_position)]);
    case 'record.promoted':
      return msg([C.promoted(w)], [C.seeYou], withCalendar, confirmed);
    case 'record.cancelled':
      // A seat hold that ran out unpaid: the seats went to others, so the way back is a new booking.
      if (r.cancel_reason === HOLD_EXPIRED_REASON)
        return msg(
          [C.cancelled(w), reason(r.cancel_reason)],
          [M.holdExpiredHint],
          inlineKeyboard([
            [webAppButton(rc.publicUrl, C.buttons.bookAgain, `/apply?again=${r.record_id}`)],
            [recordButton(rc.publicUrl, r.record_id, C.buttons.myRecord)],
          ]),
        );
      // The session started without a seat for a queued booking: nothing to restore, the money lines say where it went.
      if (r.cancel_reason === QUEUE_PASSED_REASON) return msg([C.cancelled(w), reason(r.cancel_reason)]);
      return msg([C.cancelled(w), ...(r.cancel_reason ? [reason(r.cancel_reason)] : [])], [C.restoreHint]);
    case 'record.paid':
      return msg([n.payload.late ? M.receivedLate(n.payload.amount, w) : M.received(n.payload.amount, w)]);
    case 'record.restored':
      return r.state === 'QUEUED'
        ? msg([C.restoredQueued(w), C.queueNote(r.queue_position)])
        : msg([C.restored(w)], [C.seeYou], myRecord, confirmed);
    case 'record.people_changed': {
      const head = [C.peopleChanged(w, n.payload.previous_people_count, r.people_count)];
      if (r.state === 'QUEUED') head.push(C.peopleMovedToQueue(r.queue_position));
      else if (r.state === 'ACTIVE') head.push(C.seatsYours);
      return msg(head);
    }
    case 'schedule.changed':
      return msg(
        [C.scheduleChanged(w, n.payload.changed)],
        [r.state === 'QUEUED' ? C.stillQueued(r.queue_position) : C.changeHint],
      );
    case 'schedule.deleted':
      return {
        text: fit(
          [
            C.scheduleDeleted(w, common.dateTime(s.date, rc.timezone)),
            ...(money.length ? ['', ...money] : []),
            '',
            C.pickAnother,
          ],
          T,
        ),
        reply_markup: inlineKeyboard([[applyButton(rc.publicUrl, C.buttons.pickAnother)]]),
      };
    case 'schedule.cancelled':
      return {
        text: fit(
          [
            C.sessionCancelled(w, common.dateTime(s.date, rc.timezone)),
            // Too few people: the reason in the customer's language rather than the stored Russian one.
            ...(r.cancel_reason === MIN_PEOPLE_REASON
              ? [C.minPeopleReason]
              : r.cancel_reason
                ? [reason(r.cancel_reason)]
                : []),
            ...(money.length ? ['', ...money] : []),
            '',
            C.otherDatesHint,
          ],
          T,
        ),
        reply_markup: inlineKeyboard([
          [webAppButton(rc.publicUrl, C.buttons.otherDates, `/apply?workshop=${n.payload.workshop_id}`)],
        ]),
      };
    case 'schedule.reminder':
      // Sent by staff by hand: a plain reminder. The automatic ones ask (reminderMessage).
      return msg([C.manualReminder(w)], [C.waitingForYou]);
    case 'record.thanks':
      return { text: fit([C.thanks(w), '', C.rateAsk], T), reply_markup: thanksKeyboard(rc, r.record_id) };
    case 'record.given_away':
      return msg([C.givenAway(w, n.payload.receiver_name)], [], undefined);
    case 'record.received':
      return msg(
        [C.received(n.payload.giver_name, w), ...(r.state === 'QUEUED' ? [C.receivedQueued(r.queue_position)] : [])],
        [C.seeYou],
      );
  }
}

/** "Записаться снова" (the workshop's next dates, with the party size and allergy of this booking) and the rating. */
export const thanksKeyboard = (rc: RenderContext, recordId: number, rated?: number) =>
  inlineKeyboard([
    rated ? [] : ratingButtons(recordId, textsOf(rc).customer.buttons.rating),
    [webAppButton(rc.publicUrl, textsOf(rc).customer.buttons.bookAgain, `/apply?again=${recordId}`)],
  ]);

/** The automatic reminder: the session, and "Приду" / "Не смогу". */
export function reminderText(s: ScheduleSnapshot, peopleCount: number, hoursBefore: number, rc: RenderContext) {
  const T = textsOf(rc);
  const C = T.customer;
  return fit(
    [C.reminder(s.workshop_title, hoursBefore), '', ...scheduleLines(s, rc), C.people(peopleCount), '', C.reminderAsk],
    T,
  );
}

export function reminderKeyboard(rc: RenderContext, recordId: number) {
  const C = textsOf(rc).customer;
  return inlineKeyboard([
    [reminderButton(C.buttons.coming, 'yes', recordId), reminderButton(C.buttons.notComing, 'no', recordId)],
    [recordButton(rc.publicUrl, recordId, C.buttons.myRecord)],
  ]);
}

function reminderMessage(
  n: Extract<Notification, { kind: 'schedule.reminder' }>,
  rc: RenderContext,
  hoursBefore: number,
): RenderedMessage {
  const { schedule: s, record: r, venue } = n.payload;
  const message = {
    text: reminderText(s, r.people_count, hoursBefore, rc),
    reply_markup: reminderKeyboard(rc, r.record_id),
  };
  // The last reminder is followed by the place as a pin.
  return venue ? [message, { method: 'sendVenue', params: venue }] : message;
}

function newDatesMessage(n: Extract<Notification, { kind: 'workshop.new_dates' }>, rc: RenderContext): OutgoingMessage {
  const s = n.payload.schedule;
  const T = textsOf(rc);
  const C = T.customer;
  return {
    text: fit([C.newDate(s.workshop_title), '', ...scheduleLines(s, rc), '', C.newDateHint], T),
    reply_markup: inlineKeyboard([
      [webAppButton(rc.publicUrl, C.buttons.book, `/apply?workshop=${n.payload.workshop_id}`)],
    ]),
  };
}

const openSchedule = (rc: RenderContext) => inlineKeyboard([[urlButton(rc.publicUrl, S.openSchedule, '/schedule')]]);

function staffMessage(
  n: Exclude<
    StaffNotification,
    { kind: 'staff.session_cancelled' | 'staff.certificate' | 'staff.money' | 'staff.erased_money' }
  >,
  rc: RenderContext,
): OutgoingMessage {
  const { schedule: s, record: r } = n.payload;
  const session = S.session(s.workshop_title, common.dateTime(s.date, rc.timezone));
  if (n.kind === 'staff.paid') {
    const p = n.payload;
    const method = PAYMENT_METHOD_LABELS[p.method as PaymentMethod] ?? p.method;
    const head = p.late ? S.payment.late(session, p.amount) : S.payment.received(session, p.amount, method);
    return { text: fit([head, '', S.person(r), S.people(r.people_count)]), reply_markup: openSchedule(rc) };
  }
  const lines =
    n.kind === 'staff.transferred'
      ? [
          S.transferred(session),
          '',
          S.giver(n.payload.giver_name),
          S.receiver(n.payload.receiver_name, r.telegram_login),
          S.people(r.people_count),
          S.state(r.state, r.queue_position),
          S.allergy(r),
        ]
      : n.kind === 'staff.new_record'
        ? [
            S.newRecord(session),
            '',
            S.person(r),
            S.people(r.people_count),
            S.state(r.state, r.queue_position),
            S.allergy(r),
            S.comment(r.comment),
            S.source(r.source),
            S.firstTime(r.is_first_time),
          ]
        : [S.cancelled(session), '', S.person(r), S.people(r.people_count), S.cancelReason(r.cancel_reason)];
  return { text: fit(lines), reply_markup: openSchedule(rc) };
}

/** The fiscal sender's alert, with the page to act on: the settings for the PIN, the cash desk otherwise. */
function staffFiscalMessage(p: StaffFiscalPayload, rc: RenderContext): OutgoingMessage {
  const F = S.fiscal;
  const text =
    p.event === 'pin_required'
      ? p.pin_refused
        ? F.pinRefused(p.waiting)
        : F.pinRequired(p.waiting)
      : p.event === 'unreachable'
        ? F.unreachable(p.waiting)
        : p.event === 'recovered'
          ? F.recovered(p.waiting)
          : p.event === 'not_sent'
            ? F.notSent(p.receipt_id ?? 0, p.errors || '—')
            : F.refused(p.receipt_id ?? 0, p.transaction_type === 'Refund', p.amount ?? null, p.errors || '—');
  const button =
    p.event === 'pin_required' || p.event === 'not_sent'
      ? urlButton(rc.publicUrl, F.openSettings, '/settings')
      : urlButton(rc.publicUrl, F.openCash, '/cash');
  return { text, reply_markup: inlineKeyboard([[button]]) };
}

function digestMessage(p: DigestPayload, rc: RenderContext, now: Date): OutgoingMessage {
  const s = p.schedule;
  const days = daysBetween(now, s.date, rc.timezone);
  const day = days === 0 ? S.digest.today : days === 1 ? S.digest.tomorrow : '';
  const person = (x: DigestPayload['participants'][number], i: number) =>
    S.digest.person(i, x, x.people_count, x.is_first_time);
  const lines = [
    S.digest.head(day, s.workshop_title),
    ...scheduleLines(s, rc),
    '',
    S.digest.participants(p.participants.length, p.total_people, p.capacity),
    ...(p.participants.length ? p.participants.map(person) : [S.digest.nobody]),
    '',
    S.digest.allergies(p.allergies.length > 0),
    ...p.allergies.map((a) => S.digest.item(a.name, a.allergy)),
    '',
    S.digest.comments(p.comments.length > 0),
    ...p.comments.map((c) => S.digest.item(c.name, c.comment)),
    '',
    S.digest.queue(p.queue.length),
    ...p.queue.map(person),
  ];
  return { text: fit(lines), reply_markup: openSchedule(rc) };
}

/** The text and buttons of a notification; a reminder with a map pin is two calls (the message, then the venue). */
export function renderNotification(n: Notification, rc: RenderContext, now = new Date()): RenderedMessage {
  if (n.kind === 'staff.digest') return digestMessage(n.payload, rc, now);
  if (n.kind === 'staff.min_people') return minPeopleCard(n.payload, rc);
  if (n.kind === 'staff.money_check') return { text: S.moneyCheck(n.payload.text) };
  if (n.kind === 'staff.session_cancelled') return sessionCancelledMessage(n.payload, rc);
  if (n.kind === 'certificate.ready' || n.kind === 'certificate.expiring') return certificateMessage(n, rc);
  if (n.kind === 'fiscal.receipt' || n.kind === 'fiscal.consent' || n.kind === 'fiscal.buyer_id')
    return receiptNotificationMessage(n, rc);
  if (n.kind === 'staff.certificate') return staffCertificateMessage(n, rc);
  if (n.kind === 'staff.erased_money') return { text: S.erasedMoney(n.payload) };
  if (n.kind === 'staff.money') return staffMoneyMessage(n, rc);
  if (n.kind === 'staff.fiscal') return staffFiscalMessage(n.payload, rc);
  if (
    n.kind === 'staff.new_record' ||
    n.kind === 'staff.cancelled' ||
    n.kind === 'staff.transferred' ||
    n.kind === 'staff.paid'
  )
    return staffMessage(n, rc);
  if (n.kind === 'workshop.new_dates') return newDatesMessage(n, rc);
  if (n.kind === 'money.unbooked') return { text: textsOf(rc).money.unbooked(n.payload.amount, n.payload.balance) };
  if (n.kind === 'schedule.reminder' && n.payload.hours_before !== undefined)
    return reminderMessage(n, rc, n.payload.hours_before);
  return customerMessage(n, rc);
}

/* ---------- /mydata ---------- */

/** The readable part of /mydata (the JSON file beside it has everything). */
export function personalDataText(x: PersonalDataExport, timezone: string, T: BotTexts = texts): string {
  const { common } = T;
  const P = T.replies.personalData;
  const bookings = x.bookings.map((b, i) => {
    const notes = [
      ...(b.has_allergy ? [P.allergy(b.allergy_type)] : []),
      ...(b.comment ? [P.comment(b.comment)] : []),
      ...(typeof b.confirmed_at === 'string' ? [P.confirmed] : []),
      ...(typeof b.rating === 'number' ? [P.rating(b.rating)] : []),
    ];
    return [
      P.booking(i, b.workshop, common.dateTime(b.date, timezone), b.state),
      `    ${P.person(b)}`,
      ...(notes.length ? [`    ${notes.join(' · ')}`] : []),
    ].join('\n');
  });
  return fit(
    [
      P.title,
      '',
      P.telegramId(x.telegram_id),
      ...(x.staff_account ? [P.staffAccount(x.staff_account.email)] : []),
      '',
      P.bookings(x.bookings.length),
      ...bookings,
      '',
      P.subscriptions(x.subscriptions.map((s) => s.workshop)),
      // Only once the studio issued them a receipt (the question was asked).
      ...(x.e_receipts !== undefined ? [T.receipts.myData(x.e_receipts)] : []),
      ...(x.staff_note ? [P.staffNote(x.staff_note)] : []),
      '',
      P.fileNote,
      P.forgetHint,
    ],
    T,
  );
}

/* ---------- /today ---------- */

export interface TodayParticipant {
  id: number;
  name: string;
  last_name: string | null;
  people_count: number;
  has_allergy: boolean;
  allergy_type: string | null;
  attendance: AttendanceValue | null;
  /** Staff's note about the customer. */
  note?: string | null;
  /** Still to pay (0: paid), null when the booking costs nothing. */
  due?: number | null;
}

export interface TodaySession {
  title: string;
  date: string;
  capacity: number;
  participants: TodayParticipant[];
}

/** One session of /today: its participants with party size, allergy and their mark. */
export function todayText(s: TodaySession, timezone: string): string {
  const people = s.participants.reduce((n, p) => n + p.people_count, 0);
  const head = S.today.head(s.title, common.dateTime(s.date, timezone), people, s.capacity);
  if (s.participants.length === 0) return `${head}\n\n${S.today.empty}`;
  // A full session with long allergy notes would pass Telegram's 4096 characters: the last lines give way
  // (every participant keeps their buttons).
  return fit([head, '', ...s.participants.map((p, i) => S.today.participant(i, p, p.attendance))]);
}

/* ---------- delivery ---------- */

/** A notification as its recipient reads it: a customer's in their language as it is now, staff's in Russian. */
export async function renderNotificationForChat(
  db: Executor,
  n: Notification,
  chatId: number,
  rc: RenderContext,
  now = new Date(),
): Promise<RenderedMessage> {
  const language = n.kind.startsWith('staff.') ? DEFAULT_LANGUAGE : await customerLanguage(db, chatId);
  return renderNotification(withWorkshopTitleIn(n, language), { ...rc, language }, now);
}

/** The workshop's title in the recipient's language, when the workshop has one (else the Russian one stays). */
function withWorkshopTitleIn(n: Notification, language: Language): Notification {
  const payload = n.payload as { schedule?: Record<string, unknown>; workshop_title?: string };
  const title = language === DEFAULT_LANGUAGE ? null : payload.schedule?.[`workshop_title_${language}`];
  if (typeof title !== 'string' || !title) return n;
  const renamed = { ...payload, schedule: { ...payload.schedule, workshop_title: title } };
  if ('workshop_title' in payload) renamed.workshop_title = title;
  return { ...n, payload: renamed } as Notification;
}
