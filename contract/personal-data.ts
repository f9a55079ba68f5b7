import { z } from './zod';

/** What a booking made from the mini-app without the customer's consent is refused with (422). */
export const CONSENT_REQUIRED = 'Чтобы записаться, подтвердите согласие на обработку персональных данных';

/** What replaces the name of a booking whose personal data was erased; staff see it in every list. */
export const ERASED_NAME = 'Удалено';

/** The privacy text the consent line links to; `version` changes whenever the text does. */
export const PrivacyPublic = z.object({ text: z.string(), version: z.string() });
export type PrivacyPublic = z.infer<typeof PrivacyPublic>;

/** One booking as the customer's export shows it: its session and every stored field. */
export const PersonalBooking = z.looseObject({
  id: z.number().int(),
  workshop: z.string(),
  date: z.string(),
  address: z.string(),
  state: z.string(),
  name: z.string(),
  last_name: z.string().nullable(),
  people_count: z.number().int(),
  telegram_login: z.string().nullable(),
  comment: z.string().nullable(),
  has_allergy: z.boolean(),
  allergy_type: z.string().nullable(),
  source: z.string().nullable(),
  is_first_time: z.boolean(),
  cancel_reason: z.string().nullable(),
  consent_at: z.string().nullable(),
  consent_version: z.string().nullable(),
  created_at: z.string(),
});
export type PersonalBooking = z.infer<typeof PersonalBooking>;

/** Everything stored about one Telegram user (GET /me/data, the bot's /mydata). */
export const PersonalDataExport = z.object({
  telegram_id: z.number(),
  exported_at: z.string(),
  bookings: z.array(PersonalBooking),
  /** Staff's note about the customer (absent in exports of older versions). */
  staff_note: z.string().nullable().optional(),
  /** "Tell me about new dates" subscriptions. */
  subscriptions: z.array(z.looseObject({ workshop: z.string(), created_at: z.string().nullable() })),
  /** The history of the bookings' changes (the audit log). */
  history: z.array(
    z.object({
      record_id: z.number().int(),
      action: z.string(),
      at: z.string(),
      before: z.unknown(),
      after: z.unknown(),
    }),
  ),
  /** Messages to this chat the bot has yet to send, or sent in the last 30 days. */
  messages: z.number().int(),
  /** A staff account linked to this Telegram account, if any. */
  staff_account: z.object({ email: z.string(), full_name: z.string().nullable() }).nullable(),
  /**
   * Their money at the studio, as erasing would leave it: the studio credit, what upcoming bookings paid,
   * and all that would be owed back (absent in exports of older versions).
   */
  money: z.object({ credit: z.number().int(), paid: z.number().int(), owed: z.number().int() }).optional(),
  /** Their answer about fiscal receipts in Telegram: true, false, null while unanswered; absent: never asked. */
  e_receipts: z.boolean().nullable().optional(),
});
export type PersonalDataExport = z.infer<typeof PersonalDataExport>;

/** What DELETE /me/data and the bot's /forget did. */
export const ForgetResult = z.object({
  /** Upcoming bookings cancelled (their seats went to the queue). */
  cancelled: z.number().int(),
  /** Bookings whose personal values of theirs were erased: their own (counts and statistics keep them) and those they gave to a friend. */
  anonymised: z.number().int(),
  /** What the studio owes them back (their credit, what the cancelled bookings and earlier ones had paid), whole RSD. */
  owed: z.number().int(),
});
export type ForgetResult = z.infer<typeof ForgetResult>;
