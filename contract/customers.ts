import { z } from './zod';
import { PageQuery } from './paging';
import { AttendanceValue, RecordState } from './records';

/** One Telegram user who booked, with what their bookings add up to. */
export const CustomerSummary = z.object({
  telegram_id: z.number(),
  telegram_login: z.string().nullable(),
  name: z.string(),
  last_name: z.string().nullable(),
  bookings: z.number().int(),
  attended: z.number().int(),
  no_shows: z.number().int(),
  cancellations: z.number().int(),
  /** The date of the latest session they attended (or, unmarked, were ACTIVE in) that has passed. */
  last_visit: z.string().nullable(),
  allergies: z.array(z.string()),
  /** Staff's note about them. */
  note: z.string().nullable().optional(),
});
export type CustomerSummary = z.infer<typeof CustomerSummary>;

export const CustomersPage = z.object({ data: z.array(CustomerSummary), count: z.number().int() });
export type CustomersPage = z.infer<typeof CustomersPage>;

export const CustomersQuery = PageQuery.extend({ q: z.string().trim().max(100).optional() });
export type CustomersQuery = z.input<typeof CustomersQuery>;

export const CustomerBooking = z.object({
  id: z.number().int(),
  schedule_id: z.number().int(),
  date: z.string(),
  workshop_title: z.string(),
  state: RecordState,
  people_count: z.number().int(),
  attendance: AttendanceValue.nullable(),
  cancel_reason: z.string().nullable(),
});
export type CustomerBooking = z.infer<typeof CustomerBooking>;

export const CustomerDetail = CustomerSummary.extend({ records: z.array(CustomerBooking) });
export type CustomerDetail = z.infer<typeof CustomerDetail>;

/** Staff's note about a customer: up to 500 characters; empty removes it. */
export const NOTE_MAX = 500;
export const CustomerNoteUpdate = z.object({
  note: z.string().trim().max(NOTE_MAX, `Заметка: не больше ${NOTE_MAX} символов`),
});
export type CustomerNoteUpdate = z.infer<typeof CustomerNoteUpdate>;
export const CustomerNote = z.object({ telegram_id: z.number(), note: z.string().nullable() });
export type CustomerNote = z.infer<typeof CustomerNote>;

export const TelegramIdParam = z.object({ telegram_id: z.coerce.number().int().positive() });
