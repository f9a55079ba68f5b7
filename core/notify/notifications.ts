import { z } from 'zod';
import { bookingOwner, erasePersonal, personal, subject, type ErasureScope } from './personal';
import { UNRECONCILED_KINDS } from '../../contract/unreconciled';

/*
 * What the outbox carries: one union of kinds and their payloads, written here in the transaction
 * of each change and rendered by the bot at delivery time. A payload is a snapshot taken in that
 * transaction, so the message tells what happened then. The schemas also check every row the bot
 * reads back, so a row of an unknown or older shape fails for good instead of sending nonsense.
 * Personal values are marked (personal(), core/notify/personal.ts), each with the booking and the
 * owner it belongs to, so erasure finds them by the schema.
 */

const ScheduleSnapshot = z.object({
  schedule_id: z.number(),
  date: z.string(),
  workshop_title: z.string(),
  /** The title in English and Serbian, when the workshop has them (absent in rows of older versions). */
  workshop_title_en: z.string().nullable().optional(),
  workshop_title_sr: z.string().nullable().optional(),
  address_title: z.string(),
  address_description: z.string().nullable(),
  map_link: z.string(),
});
export type ScheduleSnapshot = z.infer<typeof ScheduleSnapshot>;

const RecordSnapshot = subject(
  z.object({
    record_id: z.number(),
    state: z.enum(['ACTIVE', 'QUEUED', 'CANCELLED']),
    /** Whose the booking was when this was written (absent in rows of older versions). */
    telegram_id: personal(z.number().nullable()).optional(),
    name: personal(z.string()),
    last_name: personal(z.string().nullable()),
    people_count: z.number(),
    telegram_login: personal(z.string().nullable()),
    comment: personal(z.string().nullable(), 'health'),
    has_allergy: personal(z.boolean(), 'health'),
    allergy_type: personal(z.string().nullable(), 'health'),
    source: z.string().nullable(),
    is_first_time: z.boolean(),
    cancel_reason: z.string().nullable(),
    /** Place in the queue when QUEUED, else null. */
    queue_position: z.number().nullable(),
  }),
);
export type RecordSnapshot = z.infer<typeof RecordSnapshot>;

/** The booking's money when the message was written (absent in rows of older versions). */
const MoneySnapshot = z.object({
  price: z.number(),
  amount_paid: z.number(),
  balance: z.number(),
  status: z.string(),
  required_now: z.number(),
  pay_by: z.string().nullable(),
  paid_by_credit: z.number(),
  /** Returned to the customer's studio credit (a cancel, a smaller party). */
  to_credit: z.number(),
});
export type MoneySnapshot = z.infer<typeof MoneySnapshot>;

const RecordPayload = z.object({ schedule: ScheduleSnapshot, record: RecordSnapshot, money: MoneySnapshot.optional() });
export type RecordPayload = z.infer<typeof RecordPayload>;

/** The studio as a map pin (Telegram venue), sent after the last reminder when the address has coordinates. */
const Venue = z.object({ latitude: z.number(), longitude: z.number(), title: z.string(), address: z.string() });
export type Venue = z.infer<typeof Venue>;

const ReminderPayload = RecordPayload.extend({
  /** Set on the automatic reminders (the business setting's offset); absent on the one staff send by hand. */
  hours_before: z.number().optional(),
  venue: Venue.optional(),
});
export type ReminderPayload = z.infer<typeof ReminderPayload>;

/** A workshop with new dates, for its subscribers. */
const NewDatesPayload = z.object({
  workshop_id: z.number(),
  workshop_title: z.string(),
  schedule: ScheduleSnapshot,
});
export type NewDatesPayload = z.infer<typeof NewDatesPayload>;

const GiftOwners = z.object({
  record: z.object({ record_id: z.number(), telegram_id: z.number().nullish() }),
  giver_telegram_id: z.number().nullish(),
});
/** The giver: the booking's owner before the friend (their Telegram id is absent in rows of older versions). */
const giver = (_: unknown, p: Record<string, unknown>) => {
  const g = GiftOwners.parse(p);
  return { record_id: g.record.record_id, telegram_id: g.giver_telegram_id };
};
/** The friend: the booking's owner now. */
const receiver = (_: unknown, p: Record<string, unknown>) => bookingOwner(GiftOwners.parse(p).record);

/** A booking handed to a friend: the giver's and the staff's message. */
const GiftPayload = RecordPayload.extend({
  giver_name: personal(z.string(), 'identity', giver),
  giver_telegram_id: personal(z.number().nullable(), 'identity', giver).optional(),
  receiver_name: personal(z.string(), 'identity', receiver),
});
export type GiftPayload = z.infer<typeof GiftPayload>;

const DigestPerson = subject(
  z.object({
    record_id: z.number(),
    telegram_id: personal(z.number().nullable()).optional(),
    name: personal(z.string()),
    last_name: personal(z.string().nullable()),
    telegram_login: personal(z.string().nullable()),
    people_count: z.number(),
    has_allergy: personal(z.boolean(), 'health'),
    allergy_type: personal(z.string().nullable(), 'health'),
    comment: personal(z.string().nullable(), 'health'),
    is_first_time: z.boolean(),
  }),
);
export type DigestPerson = z.infer<typeof DigestPerson>;

/**
 * A line of the digest's allergies or comments: the participant's booking (absent in rows of older
 * versions, whose lines are matched to the participant with that name in the same digest).
 */
const DigestNote = <T extends z.ZodRawShape>(line: z.ZodObject<T>) =>
  subject(
    line.extend({
      record_id: z.number().optional(),
      telegram_id: personal(z.number().nullable()).optional(),
      name: personal(z.string()),
    }),
    (note, payload) => {
      if (typeof note.record_id === 'number') return bookingOwner(note);
      const people = (payload.participants ?? []) as DigestPerson[];
      const same = people.find((x) => [x.name, x.last_name].filter(Boolean).join(' ') === note.name);
      return same && bookingOwner(same);
    },
  );

const DigestPayload = z.object({
  schedule: ScheduleSnapshot,
  capacity: z.number(),
  /** ACTIVE bookings, in booking order. */
  participants: z.array(DigestPerson),
  /** People on ACTIVE bookings. */
  total_people: z.number(),
  allergies: z.array(DigestNote(z.object({ allergy: personal(z.string(), 'health') }))),
  comments: z.array(DigestNote(z.object({ comment: personal(z.string(), 'health') }))),
  /** QUEUED bookings in the order they are served. */
  queue: z.array(DigestPerson),
});
export type DigestPayload = z.infer<typeof DigestPayload>;

const PaidPayload = RecordPayload.extend({ amount: z.number(), method: z.string(), late: z.boolean() });
export type PaidPayload = z.infer<typeof PaidPayload>;

/** Staff's one alert for a cancelled session: who cancelled (null: the minimum rule) and what it had. */
const SessionCancelledPayload = z.object({
  schedule: ScheduleSnapshot,
  reason: z.string(),
  by: z.string().nullable(),
  by_rule: z.boolean(),
  bookings: z.number(),
  people: z.number(),
  queued: z.number(),
});
export type SessionCancelledPayload = z.infer<typeof SessionCancelledPayload>;

/** Staff's card for a session under its minimum: cancel or run, and what happens without an answer by `decide_by`. */
const MinPeoplePayload = z.object({
  schedule: ScheduleSnapshot,
  people: z.number(),
  min_people: z.number(),
  default_action: z.enum(['cancel', 'run']),
  decide_by: z.string(),
});
export type MinPeoplePayload = z.infer<typeof MinPeoplePayload>;

/** A certificate's names are its Telegram buyer's (erased with them); one staff sold keeps them. */
const buyerOwner = (_: Record<string, unknown>, root: Record<string, unknown>) => ({
  telegram_id: typeof root.buyer_telegram_id === 'number' ? root.buyer_telegram_id : null,
});
/** A gift certificate as its messages show it (the code and the card page's path). */
const CertificatePayload = z.object({
  certificate_id: z.number(),
  code: z.string(),
  amount: z.number(),
  /** A places certificate's places (then `amount` is what was paid and is not shown); absent: an amount. */
  places: z.number().nullable().optional(),
  buyer_telegram_id: z.number().nullable().optional(),
  recipient_name: personal(z.string().nullable(), 'identity', buyerOwner),
  greeting: personal(z.string().nullable(), 'identity', buyerOwner),
  expires_at: z.string(),
  url: z.string(),
});
export type CertificatePayload = z.infer<typeof CertificatePayload>;
/** `places_left` set: a places certificate, its balance is places. */
const CertificateExpiringPayload = z.object({
  code: z.string(),
  balance: z.number(),
  places_left: z.number().nullable().optional(),
  expires_at: z.string(),
});
export type CertificateExpiringPayload = z.infer<typeof CertificateExpiringPayload>;
/** Staff hear of a purchase to confirm, a Telegram payment no certificate waited for, and balances written off. */
const StaffCertificatePayload = z.object({
  event: z.enum(['requested', 'late', 'expired']),
  code: z.string(),
  amount: z.number(),
  /** Places written off (a places certificate's expiry); absent or null: `amount` was. */
  places: z.number().nullable().optional(),
  buyer_telegram_id: z.number().nullable().optional(),
  buyer_name: personal(z.string().nullable(), 'identity', buyerOwner),
});
export type StaffCertificatePayload = z.infer<typeof StaffCertificatePayload>;

/** The payer's name is theirs (erased with them). */
const payerOwner = (_: Record<string, unknown>, root: Record<string, unknown>) => ({
  telegram_id: typeof root.payer_telegram_id === 'number' ? root.payer_telegram_id : null,
});
/**
 * Money staff must look at: a charge for a booking or a gift certificate that no longer exists (kept as
 * the payer's credit), a charge whose handling was given up (not recorded), and a sweeper's finding
 * (unreconciled).
 */
const StaffMoneyPayload = z.object({
  event: z.enum(['no_booking', 'no_certificate', 'not_recorded', 'unreconciled']),
  /** The finding's kind (event unreconciled). */
  problem: z.enum(UNRECONCILED_KINDS).optional(),
  amount: z.number(),
  record_id: z.number().nullable(),
  payer_telegram_id: z.number().nullable().optional(),
  payer_name: personal(z.string().nullable(), 'identity', payerOwner).optional(),
  charge_id: z.string().optional(),
});
export type StaffMoneyPayload = z.infer<typeof StaffMoneyPayload>;

/** A customer erased their data while the studio held their money: what is owed back, amounts only (nobody named). */
const ErasedMoneyPayload = z.object({ credit: z.number(), paid: z.number(), owed: z.number() });
export type ErasedMoneyPayload = z.infer<typeof ErasedMoneyPayload>;

/**
 * The fiscal sender needs staff: the PFR asks for its PIN, has not answered for a while, answers again
 * after staff were told (`recovered`), refused a receipt (`refused`, with the PFR's error codes), or a
 * receipt cannot be built as the settings stand (`not_sent`: a tax label; it waits).
 */
const StaffFiscalPayload = z.object({
  event: z.enum(['pin_required', 'unreachable', 'recovered', 'refused', 'not_sent']),
  /** Receipts waiting for the PFR at the time. */
  waiting: z.number(),
  /** The receipt refused or not sent: its id, amount, transaction type and what the PFR (or the settings) said. */
  receipt_id: z.number().nullable().optional(),
  amount: z.number().nullable().optional(),
  transaction_type: z.enum(['Sale', 'Refund']).nullable().optional(),
  errors: z.string().nullable().optional(),
  /** The configured PIN was refused by the PFR (so it is not tried again): someone must enter it. */
  pin_refused: z.boolean().optional(),
});
export type StaffFiscalPayload = z.infer<typeof StaffFiscalPayload>;

/** A receipt's values are its booking's owner's, or (a certificate's, a credit's) the customer's it was sent to. */
const receiptOwner = (_: Record<string, unknown>, root: Record<string, unknown>) => ({
  ...(typeof root.record_id === 'number' && { record_id: root.record_id }),
  telegram_id: typeof root.telegram_id === 'number' ? root.telegram_id : null,
});

/** A fiscal receipt the PFR issued, for the customer who agreed to get receipts in Telegram. */
const FiscalReceiptPayload = z.object({
  receipt_id: z.number(),
  record_id: z.number().nullable(),
  telegram_id: z.number().nullable(),
  invoice_number: z.string(),
  invoice_type: z.enum(['Normal', 'Advance', 'Copy', 'Training', 'Proforma']),
  transaction_type: z.enum(['Sale', 'Refund']),
  amount: z.number(),
  sdc_time: z.string().nullable(),
  verification_url: z.string().nullable(),
  /** The PFR's text of the receipt (a refund's names the buyer's document). */
  journal: personal(z.string().nullable(), 'identity', receiptOwner),
  /** The verification QR code as the PFR sent it (a base64 image). */
  qr: z.string().nullable(),
});
export type FiscalReceiptPayload = z.infer<typeof FiscalReceiptPayload>;

/** A refund receipt waits for the buyer's ID: the customer is asked for their document. */
const FiscalBuyerIdPayload = z.object({
  receipt_id: z.number(),
  record_id: z.number().nullable(),
  /** The delivery's closing of the advances (no money goes back): its receipt names the buyer too. */
  closing: z.boolean(),
  amount: z.number(),
  /** The booking's workshop (in English and Serbian too, when it has them) and session date. */
  workshop_title: z.string().nullable(),
  workshop_title_en: z.string().nullable(),
  workshop_title_sr: z.string().nullable(),
  date: z.string().nullable(),
});
export type FiscalBuyerIdPayload = z.infer<typeof FiscalBuyerIdPayload>;

const about = <K extends string, P extends z.ZodType>(kind: K, payload: P) =>
  z.object({ kind: z.literal(kind), payload });

export const Notification = z.discriminatedUnion('kind', [
  // To the customer who booked from Telegram.
  about('record.booked', RecordPayload),
  about('record.queued', RecordPayload),
  about('record.promoted', RecordPayload),
  about('record.cancelled', RecordPayload),
  about('record.restored', RecordPayload),
  about('record.people_changed', RecordPayload.extend({ previous_people_count: z.number() })),
  about('schedule.changed', RecordPayload.extend({ changed: z.object({ date: z.boolean(), address: z.boolean() }) })),
  about('schedule.deleted', RecordPayload),
  // Staff cancelled the session: the reason is the booking's cancel_reason; «Другие даты» of the workshop.
  about('schedule.cancelled', RecordPayload.extend({ workshop_id: z.number() })),
  about('schedule.reminder', ReminderPayload),
  // The morning after the class: thanks, a 1–5 rating and "Записаться снова".
  about('record.thanks', RecordPayload.extend({ workshop_id: z.number() })),
  about('workshop.new_dates', NewDatesPayload),
  about('record.given_away', GiftPayload),
  about('record.received', GiftPayload),
  // Money arrived (a Telegram payment); `late`: the booking no longer took it, so it went to credit.
  about('record.paid', PaidPayload),
  // A Telegram payment for something that no longer exists: the payer hears it is on their studio balance.
  about('money.unbooked', z.object({ amount: z.number(), balance: z.number() })),
  // To staff who switched the alert on.
  about('staff.new_record', RecordPayload),
  about('staff.cancelled', RecordPayload),
  about('staff.digest', DigestPayload),
  about('staff.transferred', GiftPayload),
  about('staff.paid', PaidPayload),
  // Gift certificates: the buyer's (paid, with the card), the recipient's reminder before expiry; staff's.
  about('certificate.ready', CertificatePayload),
  about('certificate.expiring', CertificateExpiringPayload),
  about('staff.certificate', StaffCertificatePayload),
  about('staff.session_cancelled', SessionCancelledPayload),
  about('staff.min_people', MinPeoplePayload),
  about('staff.erased_money', ErasedMoneyPayload),
  // The nightly money check: one break of the money invariants, said for staff.
  about('staff.money_check', z.object({ text: z.string() })),
  about('staff.money', StaffMoneyPayload),
  // Fiscal receipts: the receipt (with consent), the consent question asked once, a refund's buyer ID.
  about('fiscal.receipt', FiscalReceiptPayload),
  about('fiscal.consent', z.object({ receipt_id: z.number() })),
  about('fiscal.buyer_id', FiscalBuyerIdPayload),
  about('staff.fiscal', StaffFiscalPayload),
]);
export type Notification = z.infer<typeof Notification>;
export type NotificationKind = Notification['kind'];

const PAYLOADS = new Map<string, z.ZodType>(Notification.options.map((o) => [o.shape.kind.value, o.shape.payload]));

/** A stored payload with the personal values `scope` owns erased, as its kind declares them; an unknown kind as it was. */
export function erasePersonalInPayload(kind: string, payload: unknown, scope: ErasureScope): unknown {
  const schema = PAYLOADS.get(kind);
  return schema ? erasePersonal(schema, payload, scope) : payload;
}
export type StaffNotification = Extract<
  Notification,
  {
    kind:
      | 'staff.new_record'
      | 'staff.cancelled'
      | 'staff.transferred'
      | 'staff.paid'
      | 'staff.erased_money'
      | 'staff.certificate'
      | 'staff.session_cancelled'
      | 'staff.money';
  }
>;
export type CustomerNotification = Exclude<
  Notification,
  | StaffNotification
  | CertificateNotification
  | ReceiptNotification
  | {
      kind:
        | 'staff.digest'
        | 'staff.min_people'
        | 'staff.money_check'
        | 'staff.fiscal'
        | 'workshop.new_dates'
        | 'money.unbooked';
    }
>;

/** The customer's fiscal receipt messages (rendered apart: they are not about a booking's state). */
export type ReceiptNotification = Extract<
  Notification,
  { kind: 'fiscal.receipt' | 'fiscal.consent' | 'fiscal.buyer_id' }
>;

/** The customer's certificate messages (rendered apart: they name no booking). */
export type CertificateNotification = Extract<Notification, { kind: 'certificate.ready' | 'certificate.expiring' }>;

/** An outbox row as the bot reads it back; throws when the row is not a notification this version knows. */
export function readNotification(kind: string, payloadJson: string): Notification {
  const payload: unknown = JSON.parse(payloadJson);
  // Rows written by the previous version, still undelivered at an upgrade, called the schedule `session`.
  if (payload && typeof payload === 'object' && 'session' in payload && !('schedule' in payload)) {
    const { session, ...rest } = payload;
    return Notification.parse({ kind, payload: { ...rest, schedule: session } });
  }
  return Notification.parse({ kind, payload });
}
