import { z } from './zod';
import { requiredText } from './common';
import { RecordSchedule, RecordState } from './records';

/** "Передать место другу": the one-time link the customer sends. */
export const SeatGiftLink = z.object({
  url: z.string(),
  /** The link dies at the start of the session (or when used, or when the booking is cancelled). */
  expires_at: z.string(),
});
export type SeatGiftLink = z.infer<typeof SeatGiftLink>;

/** What the friend sees before accepting: the session and the seats, nothing personal of the giver but a first name. */
export const SeatGiftView = z.object({
  schedule: RecordSchedule,
  people_count: z.number().int(),
  state: RecordState,
  queue_position: z.number().int().nullable(),
  giver_name: z.string(),
});
export type SeatGiftView = z.infer<typeof SeatGiftView>;

export const SeatGiftAccept = z.object({
  name: requiredText('Укажите имя', 100),
  last_name: z.string().trim().max(100).nullable().optional(),
  has_allergy: z.boolean().default(false),
  allergy_type: z.string().trim().max(500).nullable().optional(),
  /** The friend accepted the privacy text. */
  consent: z.boolean().optional(),
});
export type SeatGiftAccept = z.input<typeof SeatGiftAccept>;

/** A workshop without free upcoming dates, offered as "Сообщить о новых датах". */
export const DateOffer = z.object({ workshop_id: z.number().int(), title: z.string(), subscribed: z.boolean() });
export const DateOffers = z.object({ data: z.array(DateOffer) });
export type DateOffers = z.infer<typeof DateOffers>;

/** Whether the customer is now subscribed to a workshop's new dates. */
export const DateSubscription = z.object({ subscribed: z.boolean() });
export type DateSubscription = z.infer<typeof DateSubscription>;

/** The token of a gift link in a path. */
export const GiftTokenParam = z.object({ token: z.string().regex(/^[\w-]{10,64}$/, 'Некорректная ссылка') });

export const CalendarQuery = z.object({ sig: z.string().max(100).default('') });

/** The language the mini-app speaks to this customer: their /language choice, else their Telegram app's, else Russian. */
export const CustomerLanguage = z.object({ language: z.enum(['ru', 'en', 'sr']) });
export type CustomerLanguage = z.infer<typeof CustomerLanguage>;
