import { RecordMoney } from './money';
import { z } from './zod';
import { DEFAULT_CAPACITY, idField, listOf, requiredText } from './common';
import { AddressPublic } from './addresses';
import { WorkshopPublic, minPeople } from './workshops';
import { RecordPublic } from './records';

/** A chosen workshop or address; `message` is what a missing or wrong choice says. */
const workshopId = idField('Выберите мастер-класс');
const addressId = idField('Выберите адрес');
const capacity = z.number().int().min(0, 'Минимум 0').max(10_000);
// One message for a missing, empty or malformed date.
const date = z.iso.datetime({ offset: true, error: 'Укажите дату и время' });

export const ScheduleCreate = z.object({
  date,
  capacity: capacity.default(DEFAULT_CAPACITY),
  workshop_id: workshopId,
  address_id: addressId,
  /** This session's own minimum of participants; null or absent: the workshop's. */
  min_people: minPeople.nullable().optional(),
});
export type ScheduleCreate = z.input<typeof ScheduleCreate>;

export const ScheduleUpdate = z.object({
  date: date.optional(),
  capacity: capacity.optional(),
  workshop_id: workshopId.optional(),
  address_id: addressId.optional(),
  min_people: minPeople.nullable().optional(),
});
export type ScheduleUpdate = z.infer<typeof ScheduleUpdate>;

/** How far ahead a series may reach. */
export const SERIES_MAX_MONTHS = 6;
/** ISO weekdays: 1 = Monday … 7 = Sunday. */
export const WEEKDAY_LABELS = ['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс'] as const;
// A calendar day that exists: 2026-13-01 and 2027-02-30 are refused, never moved to another day.
const day = z.iso.date({ error: 'Укажите дату в формате ГГГГ-ММ-ДД' });

/**
 * A weekly series: on the chosen weekdays at `time` (the studio's clock), from `start` for `weeks`
 * weeks or until `until` (included), at most six months ahead; one of `weeks` and `until`.
 */
export const ScheduleSeriesCreate = z
  .object({
    workshop_id: workshopId,
    address_id: addressId,
    capacity: capacity.default(DEFAULT_CAPACITY),
    start: day,
    weekdays: z
      .array(z.number().int().min(1, 'Выберите дни недели').max(7, 'Выберите дни недели'))
      .min(1, 'Выберите дни недели')
      .max(7),
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Укажите время ЧЧ:ММ'),
    weeks: z.number().int().min(1, 'Повторять: от 1 до 26 недель').max(26, 'Повторять: от 1 до 26 недель').optional(),
    until: day.optional(),
    /** Every session's own minimum of participants; null or absent: the workshop's. */
    min_people: minPeople.nullable().optional(),
  })
  .refine((s) => (s.weeks === undefined) !== (s.until === undefined), {
    message: 'Укажите число недель или дату окончания',
  });
export type ScheduleSeriesCreate = z.input<typeof ScheduleSeriesCreate>;

/** Which sessions of a series a change or deletion covers: this one, or this one and the later ones. */
export const ScheduleScopeQuery = z.object({ scope: z.enum(['one', 'following']).default('one') });
export type ScheduleScopeQuery = z.infer<typeof ScheduleScopeQuery>;

/** Staff cancel a session: the reason is shown to its customers. */
export const ScheduleCancel = z.object({ reason: requiredText('Укажите причину отмены', 500) });
export type ScheduleCancel = z.infer<typeof ScheduleCancel>;

/** A staff action on a booking: allowed, or refused with the sentence staff read. */
export const StaffPermission = z.object({ ok: z.boolean(), detail: z.string().nullable() });
export type StaffPermission = z.infer<typeof StaffPermission>;
/** A session's booking at the door: check-in (with the reason when refused), taking payment, a refund. */
export const SessionRowAllowed = z.object({ checkin: StaffPermission, pay: z.boolean(), refund: z.boolean() });
export type SessionRowAllowed = z.infer<typeof SessionRowAllowed>;

/** A booking as a session's staff read it: the booking and its customer's no-shows at earlier sessions. */
const StaffBooking = RecordPublic.extend({
  earlier_no_shows: z.number().int(),
  /** Staff's note about the customer. */
  customer_note: z.string().nullable().optional(),
  /** What the booking costs, what was paid, and the payment badge. */
  payment: RecordMoney.pick({ price: true, amount_paid: true, balance: true, status: true }).optional(),
  /** What the staff member reading it may do with the booking (computed on the server). */
  allowed: SessionRowAllowed.optional(),
});

/** A session as staff see it: everything, bookings included. */
export const SchedulePublic = z.object({
  id: z.number().int(),
  date: z.string(),
  capacity: z.number().int(),
  workshop_id: z.number().int(),
  address_id: z.number().int(),
  workshop: WorkshopPublic,
  address: AddressPublic,
  /** Each booking with its customer's no-shows at earlier sessions. */
  records: z.array(StaffBooking),
  places_available: z.number().int(),
  is_notified: z.boolean(),
  /** Cancelled by staff (kept in history) and the reason its customers were told; null otherwise. */
  cancelled_at: z.string().nullable().optional(),
  cancel_reason: z.string().nullable().optional(),
  /** The weekly series it belongs to, null for a single session. */
  series_id: z.number().int().nullable().optional(),
  /** Its own minimum of participants (null: the workshop's). */
  min_people: z.number().int().nullable().optional(),
});
export type SchedulePublic = z.infer<typeof SchedulePublic>;

export const SchedulesPublic = listOf(SchedulePublic);
export type SchedulesPublic = z.infer<typeof SchedulesPublic>;

/**
 * A booking as a session's card in a staff list shows it: who, how many, what to know at the door, the marks,
 * the payment badge and what the reader may do. The rest (where the customer heard of us, a first visit, when
 * it was booked, its promo code, what was paid and is due) is read when the booking is opened
 * (`GET /records/{id}`, `GET /records/{id}/payments`), or with the whole session (`GET /schedule/{id}`).
 */
export const SessionBooking = StaffBooking.pick({
  id: true,
  state: true,
  name: true,
  last_name: true,
  people_count: true,
  telegram_login: true,
  telegram_id: true,
  comment: true,
  has_allergy: true,
  allergy_type: true,
  cancel_reason: true,
  attendance: true,
  confirmed_at: true,
  rating: true,
  earlier_no_shows: true,
  customer_note: true,
}).extend({
  /** The payment badge: the price and the status (the amounts are the booking's ledger). */
  payment: RecordMoney.pick({ price: true, status: true }).optional(),
  /** Check-in and taking payment (a refund is decided in the booking's ledger). */
  allowed: SessionRowAllowed.pick({ checkin: true, pay: true }).optional(),
});
export type SessionBooking = z.infer<typeof SessionBooking>;

/**
 * A session in the staff lists (Расписание, История): its card, with every booking as the card shows it and the
 * workshop by its title and price (its texts for customers are the workshop's own, `GET /workshops/`).
 */
export const ScheduleListItem = SchedulePublic.omit({ workshop: true, records: true }).extend({
  workshop: WorkshopPublic.pick({ id: true, title: true, price: true, duration_minutes: true, min_people: true }),
  records: z.array(SessionBooking),
});
export type ScheduleListItem = z.infer<typeof ScheduleListItem>;

export const ScheduleListPage = listOf(ScheduleListItem);
export type ScheduleListPage = z.infer<typeof ScheduleListPage>;

/**
 * What removing a session would do, for the admin's «Удалить» and «Отменить мастер-класс»: whether it may be
 * deleted and whether it may be cancelled (or why not, as the commands refuse), its open bookings, what they have
 * paid and where a cancel sends it (by the money rules of a cancelled booking), and what its bookings cancelled
 * before still owe their customers.
 */
export const ScheduleRemoval = z.object({
  delete: StaffPermission,
  cancel: StaffPermission,
  /** Open bookings (active and queued): what a cancel cancels. */
  bookings: z.number().int(),
  /** Of them, queued. */
  queued: z.number().int(),
  /** People on the active ones. */
  people: z.number().int(),
  /** Of the open bookings, those without Telegram (booked by phone): the cancel cannot tell them, staff do. */
  without_telegram: z.number().int(),
  /** What the open bookings have paid, and where a cancel sends it: the three parts add up to `paid`. */
  money: z.object({
    paid: z.number().int(),
    /** Back to the gift certificates that paid it. */
    to_certificates: z.number().int(),
    /** To the customers' studio balance (what credit paid, and the rest when the studio refunds to credit). */
    to_credit: z.number().int(),
    /** Owed back to the customers until staff record the refund. */
    owed: z.number().int(),
  }),
  /** What its bookings cancelled before still owe their customers back. */
  refunds_owed: z.number().int(),
});
export type ScheduleRemoval = z.infer<typeof ScheduleRemoval>;

/** A session as anyone may see it (the mini-app's step 1): nothing personal. */
export const ScheduleOpen = z.object({
  id: z.number().int(),
  date: z.string(),
  capacity: z.number().int(),
  workshop: WorkshopPublic,
  address: AddressPublic,
  places_available: z.number().int(),
  /** People still missing for the session's minimum (0: none missing or no minimum). */
  people_needed: z.number().int().optional(),
});
export type ScheduleOpen = z.infer<typeof ScheduleOpen>;

export const SchedulesOpen = listOf(ScheduleOpen);
export type SchedulesOpen = z.infer<typeof SchedulesOpen>;
