import type { Composer, Context, Filter } from 'grammy';
import { ID_MAX } from '../contract/common';
import { isLanguage, type Language } from '../contract/language';
import { isBuyerDocument, type BuyerDocument } from '../contract/receipts';

/*
 * Every button the bot sends carries one of these as its callback data, and every press is read back
 * here: the keyboards encode through `encodeCallbackData`, the handlers receive the decoded value.
 * The wire format is short text (`rem:yes:42`) because Telegram allows at most 64 bytes.
 */

export type ReminderAnswer = 'yes' | 'no' | 'cancel' | 'gift' | 'back';
export type QueueStep = 'leave' | 'yes' | 'no';
export type AttendanceMark = 'attended' | 'no_show';
export type Rating = 1 | 2 | 3 | 4 | 5;
export type MinPeopleAnswer = 'cancel' | 'run';

export type CallbackData =
  /** A reminder's Приду / Не смогу and the steps after it. */
  | { kind: 'reminder'; answer: ReminderAnswer; recordId: number }
  /** The 1–5 rating after the class. */
  | { kind: 'rate'; recordId: number; rating: Rating }
  /** Leaving a queue from /my, asked once more. */
  | { kind: 'queue'; step: QueueStep; recordId: number }
  /** "Сообщить о новых датах" of a workshop. */
  | { kind: 'subscribe'; workshopId: number }
  /** Staff's /today marks. */
  | { kind: 'attendance'; mark: AttendanceMark; recordId: number }
  /** Staff's /today «Оплачено наличными»: the balance taken in cash. */
  | { kind: 'cash'; recordId: number }
  /** The /cancel conversation: a booking picked, "Не отменять", the final yes or no. */
  | { kind: 'cancel_pick'; recordId: number }
  | { kind: 'cancel_abort' }
  | { kind: 'cancel_confirm'; yes: boolean }
  /** /forget's confirmation. */
  | { kind: 'forget'; yes: boolean }
  /** /language: the language picked. */
  | { kind: 'language'; language: Language }
  /** Staff's card for a session under its minimum of participants: cancel it or run it. */
  | { kind: 'min_people'; action: MinPeopleAnswer; scheduleId: number }
  /** Fiscal receipts in Telegram: the answer to the question asked once, or a change of mind in /mydata. */
  | { kind: 'receipts'; yes: boolean }
  /** A refund receipt's question: the document whose number the customer will send. */
  | { kind: 'buyer_doc'; document: BuyerDocument; receiptId: number };

export type CallbackKind = CallbackData['kind'];
export type CallbackOf<K extends CallbackKind> = Extract<CallbackData, { kind: K }>;

/** Telegram refuses callback data longer than this many bytes (UTF-8). */
export const CALLBACK_DATA_MAX_BYTES = 64;

const ANSWERS: readonly ReminderAnswer[] = ['yes', 'no', 'cancel', 'gift', 'back'];
const STEPS: readonly QueueStep[] = ['leave', 'yes', 'no'];
const MARKS: Record<string, AttendanceMark> = { A: 'attended', N: 'no_show' };
const MARK_CODE: Record<AttendanceMark, string> = { attended: 'A', no_show: 'N' };
const yesNo = (yes: boolean) => (yes ? 'yes' : 'no');

export function encodeCallbackData(data: CallbackData): string {
  for (const id of [
    (data as { recordId?: number }).recordId,
    (data as { workshopId?: number }).workshopId,
    (data as { scheduleId?: number }).scheduleId,
    (data as { receiptId?: number }).receiptId,
  ])
    if (id !== undefined && !isId(id)) throw new Error(`callback data with an id that cannot exist: ${id}`);
  const text = wire(data);
  if (Buffer.byteLength(text) > CALLBACK_DATA_MAX_BYTES)
    throw new Error(`callback data over ${CALLBACK_DATA_MAX_BYTES} bytes: ${text}`);
  return text;
}

function wire(data: CallbackData): string {
  switch (data.kind) {
    case 'reminder':
      return `rem:${data.answer}:${data.recordId}`;
    case 'rate':
      return `rate:${data.recordId}:${data.rating}`;
    case 'queue':
      return `queue:${data.step}:${data.recordId}`;
    case 'subscribe':
      return `sub:${data.workshopId}`;
    case 'attendance':
      return `att:${MARK_CODE[data.mark]}:${data.recordId}`;
    case 'cash':
      return `cash:${data.recordId}`;
    case 'cancel_pick':
      return `cancel:pick:${data.recordId}`;
    case 'cancel_abort':
      return 'cancel:abort';
    case 'cancel_confirm':
      return `cancel:${yesNo(data.yes)}`;
    case 'forget':
      return `forget:${yesNo(data.yes)}`;
    case 'language':
      return `lang:${data.language}`;
    case 'min_people':
      return `minp:${data.action}:${data.scheduleId}`;
    case 'receipts':
      return `rcpt:${yesNo(data.yes)}`;
    case 'buyer_doc':
      return `buyer:${data.document}:${data.receiptId}`;
  }
}

/**
 * What a press says: a button of ours; `missing` when it has our shape but an id that cannot exist
 * (0, or beyond a 32-bit column: a forged or corrupted press, answered like a deleted booking); or
 * null for data the bot never sends.
 */
export type DecodedCallback = CallbackData | { kind: 'missing'; of: CallbackKind } | null;

export function decodeCallbackData(text: string): DecodedCallback {
  const [head, a, b, ...rest] = text.split(':');
  if (rest.length > 0) return null;
  switch (head) {
    case 'rem':
      return b !== undefined && ANSWERS.includes(a as ReminderAnswer)
        ? withId('reminder', b, (recordId) => ({ kind: 'reminder', answer: a as ReminderAnswer, recordId }))
        : null;
    case 'rate': {
      const rating = Number(b);
      return /^[1-5]$/.test(b ?? '')
        ? withId('rate', a, (recordId) => ({ kind: 'rate', recordId, rating: rating as Rating }))
        : null;
    }
    case 'queue':
      return b !== undefined && STEPS.includes(a as QueueStep)
        ? withId('queue', b, (recordId) => ({ kind: 'queue', step: a as QueueStep, recordId }))
        : null;
    case 'sub':
      return b === undefined ? withId('subscribe', a, (workshopId) => ({ kind: 'subscribe', workshopId })) : null;
    case 'att':
      return b !== undefined && a in MARKS
        ? withId('attendance', b, (recordId) => ({ kind: 'attendance', mark: MARKS[a], recordId }))
        : null;
    case 'cash':
      return b === undefined ? withId('cash', a, (recordId) => ({ kind: 'cash', recordId })) : null;
    case 'cancel':
      if (a === 'pick' && b !== undefined)
        return withId('cancel_pick', b, (recordId) => ({ kind: 'cancel_pick', recordId }));
      if (b !== undefined) return null;
      if (a === 'abort') return { kind: 'cancel_abort' };
      return a === 'yes' || a === 'no' ? { kind: 'cancel_confirm', yes: a === 'yes' } : null;
    case 'forget':
      return b === undefined && (a === 'yes' || a === 'no') ? { kind: 'forget', yes: a === 'yes' } : null;
    case 'lang':
      return b === undefined && isLanguage(a) ? { kind: 'language', language: a } : null;
    case 'minp':
      return b !== undefined && (a === 'cancel' || a === 'run')
        ? withId('min_people', b, (scheduleId) => ({ kind: 'min_people', action: a, scheduleId }))
        : null;
    case 'rcpt':
      return b === undefined && (a === 'yes' || a === 'no') ? { kind: 'receipts', yes: a === 'yes' } : null;
    case 'buyer':
      return isBuyerDocument(a)
        ? withId('buyer_doc', b, (receiptId) => ({ kind: 'buyer_doc', document: a, receiptId }))
        : null;
    default:
      return null;
  }
}

const isId = (id: number) => Number.isInteger(id) && id >= 1 && id <= ID_MAX;

/** An id written in digits: decoded when it can exist, else the press is of a missing one. */
function withId(of: CallbackKind, digits: string | undefined, make: (id: number) => CallbackData): DecodedCallback {
  if (digits === undefined || !/^\d+$/.test(digits)) return null;
  const id = Number(digits);
  return isId(id) ? make(id) : { kind: 'missing', of };
}

type PressContext<C extends Context> = Filter<C, 'callback_query:data'>;

/**
 * Runs `handler` on presses of one kind of button with the decoded data; a press of that kind with
 * an id that cannot exist is answered with `notFound` (what a deleted one would say), so the button
 * stops spinning and nothing is looked up; every other update goes on down the chain.
 */
export function onButton<C extends Context, K extends CallbackKind>(
  composer: Composer<C>,
  button: K | { kind: K; notFound: string | ((ctx: PressContext<C>) => string) },
  handler: (ctx: PressContext<C>, data: CallbackOf<K>) => unknown,
): void {
  const { kind, notFound } = typeof button === 'string' ? { kind: button, notFound: undefined } : button;
  composer.on('callback_query:data', async (ctx, next) => {
    const data = decodeCallbackData(ctx.callbackQuery.data);
    if (data?.kind === 'missing' && data.of === kind)
      return void (await ctx.answerCallbackQuery(
        notFound ? { text: typeof notFound === 'string' ? notFound : notFound(ctx), show_alert: true } : {},
      ));
    if (data?.kind !== kind) return next();
    await handler(ctx, data as CallbackOf<K>);
  });
}
