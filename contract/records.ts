import { z } from './zod';
import { PEOPLE_MAX, PEOPLE_MIN, idField, requiredText } from './common';
import { TelegramId } from './users';
import { AddressPublic } from './addresses';
import { WorkshopPublic } from './workshops';
import { PayOptions, RecordMoney } from './money';

export const RECORD_STATES = ['ACTIVE', 'QUEUED', 'CANCELLED'] as const;
export const RecordState = z.enum(RECORD_STATES);
export type RecordState = z.infer<typeof RecordState>;
/** A booking's state as the customer and the booking table name it. */
export const RECORD_STATE_LABELS: Record<RecordState, string> = {
  ACTIVE: 'Активна',
  QUEUED: 'В очереди',
  CANCELLED: 'Отменена',
};
/** A booking's state in a list of participants (the chef's list, a customer's bookings, the log). */
export const PARTICIPANT_STATE_LABELS: Record<RecordState, string> = {
  ...RECORD_STATE_LABELS,
  ACTIVE: 'Участник',
};
/** is_cancelled, which the API keeps beside the state, follows from it. */
export const isCancelled = (state: RecordState) => state === 'CANCELLED';

/** Where the customer heard of us: stored as a code, shown with its Russian label. */
export const RECORD_SOURCES = {
  instagram: 'Instagram',
  telegram: 'Telegram',
  friends: 'От друзей и знакомых',
  certificate: 'Получил(а) подарочный сертификат',
  events: 'На мероприятиях',
  other: 'Другое',
} as const;
export const RecordSource = z.enum(
  Object.keys(RECORD_SOURCES) as [keyof typeof RECORD_SOURCES, ...(keyof typeof RECORD_SOURCES)[]],
);
export type RecordSource = z.infer<typeof RecordSource>;

export const PeopleCount = z
  .number()
  .int('Количество человек должно быть целым числом')
  .min(PEOPLE_MIN, `Количество человек: от ${PEOPLE_MIN} до ${PEOPLE_MAX}`)
  .max(PEOPLE_MAX, `Количество человек: от ${PEOPLE_MIN} до ${PEOPLE_MAX}`);

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();
export const FIRST_TIME_REQUIRED = 'Укажите, впервые ли вы у нас';

/** The booking create payload. telegram_id/telegram_login are taken from the
 * verified Telegram init data when the call comes from the mini-app. */
export const RecordCreate = z.object({
  schedule_id: idField(),
  name: requiredText('Укажите имя', 100),
  last_name: optionalText(100),
  people_count: PeopleCount.default(PEOPLE_MIN),
  telegram_login: optionalText(64),
  telegram_id: TelegramId.nullable().optional(),
  comment: optionalText(1000),
  has_allergy: z.boolean().default(false),
  allergy_type: optionalText(500),
  source: RecordSource.nullable().optional(),
  is_first_time: z.boolean({ error: FIRST_TIME_REQUIRED }),
  /** The customer accepted the privacy text (the mini-app's consent line): required from the mini-app, optional for staff. */
  consent: z.boolean().optional(),
  /** A gift certificate that pays the booking, up to its balance (the rest is due as usual). */
  certificate_code: z.string().trim().max(40).nullable().optional(),
  /** A promo code: its discount becomes part of the price, or the booking is refused with the reason (409). */
  promo_code: z.string().max(64).nullable().optional(),
  /**
   * Staff booking for a customer: the customer agreed to pay from their studio credit (default: not spent).
   * The customer's own booking always spends it.
   */
  use_credit: z.boolean().optional(),
});
export type RecordCreate = z.input<typeof RecordCreate>;

export const RecordUpdate = z.object({ people_count: PeopleCount });

/** Check-in: whether an ACTIVE booking's party came. */
export const ATTENDANCE_VALUES = ['ATTENDED', 'NO_SHOW'] as const;
export const AttendanceValue = z.enum(ATTENDANCE_VALUES);
export type AttendanceValue = z.infer<typeof AttendanceValue>;
export const ATTENDANCE_LABELS: Record<AttendanceValue, string> = { ATTENDED: 'Пришёл', NO_SHOW: 'Не пришёл' };
/** null clears the mark. */
export const RecordAttendance = z.object({ attendance: AttendanceValue.nullable() });
export type RecordAttendance = z.infer<typeof RecordAttendance>;
export type RecordUpdate = z.infer<typeof RecordUpdate>;

export const RecordCancel = z.object({ cancel_reason: requiredText('Укажите причину отмены', 1000) });
export type RecordCancel = z.infer<typeof RecordCancel>;

export const RecordPublic = z.object({
  id: z.number().int(),
  schedule_id: z.number().int(),
  state: RecordState,
  name: z.string(),
  last_name: z.string().nullable(),
  people_count: z.number().int(),
  telegram_login: z.string().nullable(),
  telegram_id: z.number().nullable(),
  comment: z.string().nullable(),
  has_allergy: z.boolean(),
  allergy_type: z.string().nullable(),
  source: z.string().nullable(),
  is_first_time: z.boolean(),
  cancel_reason: z.string().nullable(),
  attendance: AttendanceValue.nullable(),
  is_cancelled: z.boolean(),
  created_at: z.string(),
  /** The customer answered "Приду" to a reminder. */
  confirmed_at: z.string().nullable().optional(),
  /** The customer's 1–5 rating after the class. */
  rating: z.number().int().nullable().optional(),
  /** The promo code the booking was made with, and what it takes off the price. */
  promo_code: z.string().nullable().optional(),
  discount: z.number().int().optional(),
});
export type RecordPublic = z.infer<typeof RecordPublic>;

/** The session a record belongs to, as the booking page shows it. */
export const RecordSchedule = z.object({
  id: z.number().int(),
  date: z.string(),
  capacity: z.number().int(),
  workshop: WorkshopPublic,
  address: AddressPublic,
  /** Set when staff cancelled the session (it stays in history), with the reason its customers were told. */
  cancelled_at: z.string().nullable().optional(),
  cancel_reason: z.string().nullable().optional(),
});
export type RecordSchedule = z.infer<typeof RecordSchedule>;

/** What the caller may do with a booking: the actions a booking page and the bot show. */
export const RECORD_ACTIONS = ['cancel', 'restore', 'change_people', 'gift', 'leave_queue', 'confirm', 'rate'] as const;
export type RecordAction = (typeof RECORD_ACTIONS)[number];
/** Why an action is refused. */
export const REFUSALS = [
  'past',
  'not_started',
  'deadline',
  'attended',
  'cancelled',
  'not_cancelled',
  'not_active',
  'not_queued',
  'telegram_only',
  'session_cancelled',
] as const;
export const Refusal = z.enum(REFUSALS);
export type Refusal = z.infer<typeof Refusal>;
/** One action: allowed, or refused with the reason and the sentence the caller reads. */
export const Permission = z.object({ ok: z.boolean(), reason: Refusal.nullable(), detail: z.string().nullable() });
export type Permission = z.infer<typeof Permission>;
export const RecordAllowed = z.object(
  Object.fromEntries(RECORD_ACTIONS.map((a) => [a, Permission])) as Record<RecordAction, typeof Permission>,
);
export type RecordAllowed = z.infer<typeof RecordAllowed>;

/**
 * A fiscal receipt of the booking as the booking page lists it (issued ones; training receipts are not
 * fiscal documents and are left out): the PFR's number, its type and the Tax Administration's page to
 * verify it.
 */
export const RecordReceipt = z.object({
  id: z.number().int(),
  invoice_number: z.string(),
  invoice_type: z.enum(['Normal', 'Advance', 'Copy', 'Training', 'Proforma']),
  transaction_type: z.enum(['Sale', 'Refund']),
  /** Whole RSD, positive: the transaction type says the direction. */
  amount: z.number().int(),
  issued_at: z.string().nullable(),
  /** null: a receipt staff typed from their own register (manual mode). */
  verification_url: z.string().nullable(),
});
export type RecordReceipt = z.infer<typeof RecordReceipt>;

export const RecordView = z.object({
  record: RecordPublic.extend({ schedule: RecordSchedule }),
  places_available: z.number().int().default(0),
  /** 1-based place in the session's queue; null unless the record is QUEUED. */
  queue_position: z.number().int().nullable(),
  /** After this moment the customer can no longer cancel, restore or change the people count; null: until the start. */
  change_until: z.string().nullable().optional(),
  /** How to reach the studio (shown when changes are closed). */
  contact: z.string().optional(),
  /** A signed link to the booking as an iCalendar file (calendar apps cannot send init data). */
  calendar_url: z.string().nullable().optional(),
  /** What this caller may do with the booking now, and why not. */
  allowed: RecordAllowed,
  /** The price, what is paid, what is due and by when. */
  money: RecordMoney.optional(),
  /** How the customer can pay: Telegram, an IPS QR transfer, else at the studio. */
  pay: PayOptions.optional(),
  /** The booking's fiscal receipts, oldest first (absent where the studio does not fiscalize). */
  receipts: z.array(RecordReceipt).optional(),
});
export type RecordView = z.infer<typeof RecordView>;
