import { RecordMoney } from './money';
import { z } from './zod';
import { DEFAULT_CAPACITY, idField, listOf, requiredText } from './common';
import { AddressPublic } from './addresses';
import { WorkshopPublic } from './workshops';
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
});
export type ScheduleCreate = z.input<typeof ScheduleCreate>;

export const ScheduleUpdate = z.object({
  date: date.optional(),
  capacity: capacity.optional(),
  workshop_id: workshopId.optional(),
  address_id: addressId.optional(),
});
export type ScheduleUpdate = z.infer<typeof ScheduleUpdate>;

/** Staff cancel a session: the reason is shown to its customers. */
export const ScheduleCancel = z.object({ reason: requiredText('Укажите причину отмены', 500) });
export type ScheduleCancel = z.infer<typeof ScheduleCancel>;

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
  records: z.array(
    RecordPublic.extend({
      earlier_no_shows: z.number().int(),
      /** Staff's note about the customer. */
      customer_note: z.string().nullable().optional(),
      /** What the booking costs, what was paid, and the payment badge. */
      payment: RecordMoney.pick({ price: true, amount_paid: true, balance: true, status: true }).optional(),
    }),
  ),
  places_available: z.number().int(),
  is_notified: z.boolean(),
  /** Cancelled by staff (kept in history) and the reason its customers were told; null otherwise. */
  cancelled_at: z.string().nullable().optional(),
  cancel_reason: z.string().nullable().optional(),
});
export type SchedulePublic = z.infer<typeof SchedulePublic>;

export const SchedulesPublic = listOf(SchedulePublic);
export type SchedulesPublic = z.infer<typeof SchedulesPublic>;

/** A session as anyone may see it (the mini-app's step 1): nothing personal. */
export const ScheduleOpen = z.object({
  id: z.number().int(),
  date: z.string(),
  capacity: z.number().int(),
  workshop: WorkshopPublic,
  address: AddressPublic,
  places_available: z.number().int(),
});
export type ScheduleOpen = z.infer<typeof ScheduleOpen>;

export const SchedulesOpen = listOf(ScheduleOpen);
export type SchedulesOpen = z.infer<typeof SchedulesOpen>;
