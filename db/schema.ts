import type { ColumnType, Generated } from 'kysely';

/** Booleans are written as 1/0 (SQLite cannot bind booleans; PostgreSQL accepts '1'/'0')
 * and read back through `bool()`: SQLite returns numbers, PostgreSQL booleans. */
type Bool = ColumnType<boolean | number, number, number>;
/** Timestamps: ISO 8601 UTC strings on both databases (PostgreSQL timestamptz is parsed to one). */
type Timestamp = string;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  hashed_password: string;
  full_name: string | null;
  is_active: Bool;
  is_superuser: Bool;
  telegram_id: number | null;
  telegram_login: string | null;
  created_at: Timestamp;
  /** Bumped by a password change or reset: access tokens carry it, older ones stop working. */
  token_version: Generated<number>;
  /** owner (is_superuser), manager or host. */
  role: Generated<'owner' | 'manager' | 'host'>;
}

export interface WorkshopsTable {
  id: Generated<number>;
  title: string;
  description: string | null;
  price: number;
  duration_minutes: Generated<number>;
  /** Fewer people than this at the decision time: the session is cancelled or staff are asked (0: no minimum). */
  min_people: Generated<number>;
  /** The title and description in English and Serbian (null: customers see the Russian ones). */
  title_en: string | null;
  title_sr: string | null;
  description_en: string | null;
  description_sr: string | null;
}

export interface AddressesTable {
  id: Generated<number>;
  title: string;
  map_link: string;
  description: string | null;
  latitude: Generated<number | null>;
  longitude: Generated<number | null>;
}

export interface SchedulesTable {
  id: Generated<number>;
  date: Timestamp;
  capacity: number;
  workshop_id: number;
  address_id: number;
  is_notified: Bool;
  created_at: Timestamp;
  /** Cancelled by staff: kept in history, offered to nobody. */
  cancelled_at: Generated<Timestamp | null>;
  cancel_reason: Generated<string | null>;
  /** The series it was created in (weekly repeats), null for a single session. */
  series_id: Generated<number | null>;
  /** This session's own minimum of participants, instead of its workshop's; null: the workshop's. */
  min_people: Generated<number | null>;
}

/** A weekly series of sessions created at once; `rule` is the request as JSON. */
export interface ScheduleSeriesTable {
  id: Generated<number>;
  rule: string;
  created_at: Timestamp;
}

/** A session's check against its minimum of participants, once at its decision time. */
/** Money the sweeper found unaccounted for, until staff decide it (core/payments/reconcile.ts). */
export interface UnreconciledMoneyTable {
  id: Generated<number>;
  /** kind:booking:amount — a finding is kept (and alerted) once. */
  finding_key: string;
  kind: string;
  record_id: number | null;
  telegram_id: number | null;
  amount: number;
  found_at: Timestamp;
  /** null while open; settled: the sweeper found the money accounted for meanwhile. */
  decision: 'credit' | 'refund' | 'keep' | 'settled' | null;
  reason: string | null;
  decided_by_user_id: number | null;
  decided_at: Timestamp | null;
}

export interface MinPeopleChecksTable {
  schedule_id: number;
  /** enough: the minimum was met; asked: staff decide until decide_by; cancelled; kept. */
  status: 'enough' | 'asked' | 'cancelled' | 'kept';
  /** People on ACTIVE bookings at the check, and the minimum then. */
  people: number;
  min_people: number;
  /** What happens at decide_by when nobody pressed a button. */
  default_action: 'cancel' | 'run' | null;
  decide_by: Timestamp | null;
  /** The staff member who pressed (null: the rule or the default decided). */
  decided_by_user_id: number | null;
  decided_by_name: string | null;
  decided_at: Timestamp | null;
  checked_at: Timestamp;
}

export interface RecordsTable {
  id: Generated<number>;
  schedule_id: number;
  state: 'ACTIVE' | 'QUEUED' | 'CANCELLED';
  name: string;
  last_name: string | null;
  people_count: number;
  telegram_login: string | null;
  telegram_id: number | null;
  comment: string | null;
  has_allergy: Bool;
  allergy_type: string | null;
  source: string | null;
  is_first_time: Bool;
  cancel_reason: string | null;
  /** Check-in of an ACTIVE booking: null until staff mark it. */
  attendance: Generated<'ATTENDED' | 'NO_SHOW' | null>;
  /** When the record last became ACTIVE (reminders due before it are skipped). */
  active_since: Generated<Timestamp | null>;
  /** The customer pressed "Приду" on a reminder. */
  confirmed_at: Generated<Timestamp | null>;
  /** The customer's 1–5 rating after the class. */
  rating: Generated<number | null>;
  /** When the record last entered the queue: the queue is served in this order, then by id. */
  queued_at: Timestamp | null;
  /** When the customer accepted the privacy text, and which version of it (null: booked by staff without it). */
  consent_at: Generated<Timestamp | null>;
  consent_version: Generated<string | null>;
  /** When the allergy and comment were erased, and when every personal value was (forget or retention). */
  health_erased_at: Generated<Timestamp | null>;
  anonymised_at: Generated<Timestamp | null>;
  /** The workshop's price per person when the booking was made (whole RSD). */
  unit_price: Generated<number>;
  /** A price per person set by staff instead of unit_price (less a discount), and why. */
  price_override: Generated<number | null>;
  /** Set only for an override made when it was the booking's total: the party that total was for. */
  price_override_party: Generated<number | null>;
  /** Staff booked it for the customer without their agreement to pay from their studio credit: never spent. */
  credit_declined: ColumnType<boolean | number, number | undefined, number>;
  price_override_reason: Generated<string | null>;
  /** The end of the seat hold: unpaid by then, the booking is cancelled (null: no hold). */
  pay_by: Generated<Timestamp | null>;
  /** The gift certificate that pays this booking when it is (or becomes) ACTIVE. */
  certificate_id: Generated<number | null>;
  /** The promo code the booking was made with, and what it takes off unit_price × people. */
  promo_code_id: Generated<number | null>;
  /** Who redeemed the code: the Telegram customer it was booked for (kept when the seat is given away). */
  promo_telegram_id: Generated<number | null>;
  discount: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PromoCodesTable {
  id: Generated<number>;
  /** Upper case: codes are compared without case. */
  code: string;
  kind: 'percent' | 'fixed';
  /** The percent, or whole RSD off. */
  value: number;
  /** When bookings may use it: from starts_at until ends_at (excluded); null: no bound. */
  starts_at: Timestamp | null;
  ends_at: Timestamp | null;
  max_uses: number | null;
  once_per_customer: Bool;
  first_time_only: Bool;
  is_active: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The workshops a promo code is limited to (none: every workshop). */
export interface PromoCodeWorkshopsTable {
  promo_code_id: number;
  workshop_id: number;
}

export interface SettingsTable {
  user_id: number;
  user_apply: Bool;
  user_cancel: Bool;
  scheduled_1d: Bool;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: number;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** The notification outbox: written in the transaction of the change that causes it. */
export interface NotificationsTable {
  id: Generated<number>;
  chat_id: number;
  kind: string;
  payload: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  /** The worker holding the lease (locked_until), null when nobody does. */
  claimed_by: Generated<string | null>;
  last_error: string | null;
  /** Set for messages that must exist once at most (the day-before digest per session and staff member). */
  dedupe_key: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
}

export interface TelegramLinksTable {
  token_hash: string;
  user_id: number;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** Failed logins per email (lower case), for the per-account login limit. */
export interface LoginFailuresTable {
  email: string;
  at: Timestamp;
}

/** grammY session and conversation state, so a restart loses nothing. */
export interface BotSessionsTable {
  key: string;
  value: string;
}

/** Who changed what and when; before/after are JSON objects of the changed fields. */
export interface AuditLogTable {
  id: Generated<number>;
  actor_kind: 'customer' | 'staff' | 'system';
  /** The staff user; kept when the user is deleted (no foreign key). */
  actor_user_id: number | null;
  actor_telegram_id: number | null;
  entity: string;
  entity_id: number;
  action: string;
  before: string | null;
  after: string | null;
  at: Timestamp;
}

/** The studio's settings (contract/business-settings.ts): one row per setting, the value as JSON. */
export interface BusinessSettingsTable {
  key: string;
  value: string;
}

/** One-time links that hand a booking to a friend. */
export interface SeatGiftsTable {
  token_hash: string;
  record_id: number;
  created_at: Timestamp;
  /** Used or revoked: the link is dead. */
  used_at: Timestamp | null;
}

/** "Сообщить о новых датах": told once when staff add a session of the workshop, then removed. */
export interface DateSubscriptionsTable {
  workshop_id: number;
  telegram_id: number;
  created_at: Timestamp;
}

/** One fixed window of a rate limit, shared by every instance; times in epoch milliseconds. */
export interface RateLimitsTable {
  key: string;
  window_start: number;
  window_ms: number;
  count: number;
}

/** Webhook updates already taken, so each is handled once whatever the instance. */
export interface TelegramUpdatesTable {
  update_id: number;
  received_at: Timestamp;
  /** Set when its handler finished; until then the update may be taken again once its lease ran out. */
  handled_at: Timestamp | null;
  lease_until: Timestamp | null;
  attempts: Generated<number>;
}

/** Staff's note about a customer: personal data (exported, erased with the person and by retention). */
export interface CustomerNotesTable {
  id: Generated<number>;
  telegram_id: number;
  note: string;
  updated_by: number | null;
  updated_at: Timestamp;
}

/** A customer's language: what Telegram last said (language_code) and what they chose with /language. */
export interface CustomerLanguagesTable {
  telegram_id: number;
  telegram_code: string | null;
  chosen: string | null;
  updated_at: Timestamp;
}

/** A Telegram Business connection: the bot acting in the studio's own account. */
export interface BusinessConnectionsTable {
  id: string;
  /** The business account's owner and their private chat with the bot. */
  user_id: number;
  user_chat_id: number;
  can_reply: Bool;
  is_enabled: Bool;
  updated_at: Timestamp;
}

/** One customer's chat with the studio's business account: when staff last wrote, when the bot last answered. */
export interface BusinessChatsTable {
  connection_id: string;
  chat_id: number;
  staff_wrote_at: Timestamp | null;
  answered_at: Timestamp | null;
}

/** The money ledger, only appended; amounts in whole RSD, signed from the booking's side. */
export interface PaymentsTable {
  id: Generated<number>;
  /** The booking (kept when the booking is deleted); null for a credit adjustment. */
  record_id: number | null;
  /** The customer whose studio credit a credit row moves. */
  telegram_id: number | null;
  amount: number;
  method: 'cash' | 'card' | 'bank_transfer' | 'telegram' | 'credit' | 'certificate';
  kind: 'payment' | 'refund' | 'adjustment';
  recorded_by_kind: 'staff' | 'customer' | 'system';
  recorded_by_user_id: number | null;
  telegram_payment_charge_id: string | null;
  provider_payment_charge_id: string | null;
  note: string | null;
  at: Timestamp;
  /** Who and what the row was for when it was written: the cash desk names it after its booking or session is gone. */
  customer_name: string | null;
  workshop_title: string | null;
  session_date: Timestamp | null;
}

/** Money owed back to someone the studio no longer knows (an erased customer's credit), until refunded. */
export interface OwedRefundsTable {
  id: Generated<number>;
  amount: number;
  /** The ledger row that took the money out of the customer's credit. */
  payment_id: number;
  reason: 'erasure';
  created_at: Timestamp;
  refunded_at: Timestamp | null;
  refund_payment_id: number | null;
}

/** A credit line of an imported bank statement, kept once by its key; amounts in whole RSD. */
export interface BankStatementLinesTable {
  id: Generated<number>;
  /** The bank's transaction id, else a hash of the line: unique, so a line is imported once. */
  line_key: string;
  /** YYYY-MM-DD, as the bank booked it. */
  booked_on: string;
  amount: number;
  reference: string;
  payer: string;
  purpose: string;
  /** matched by its reference on import; attached by staff to a booking; dismissed by staff with a reason. */
  status: 'matched' | 'unmatched' | 'attached' | 'dismissed';
  record_id: number | null;
  certificate_id: number | null;
  /** The ledger row the line became. */
  payment_id: number | null;
  dismiss_reason: string | null;
  imported_by_user_id: number | null;
  imported_at: Timestamp;
  resolved_by_user_id: number | null;
  resolved_at: Timestamp | null;
}

/** A gift certificate; its balance is the sum of its entries. */
export interface CertificatesTable {
  id: Generated<number>;
  /** 12 symbols, upper case, without dashes. */
  code: string;
  /** amount: a balance in RSD; places: that many people on any workshop, valued when used. */
  kind: ColumnType<'amount' | 'places', 'amount' | 'places' | undefined, never>;
  /** The nominal (amount), or what the buyer paid (places). */
  amount: number;
  /** The places it was sold with (places certificates only). */
  places: number | null;
  buyer_name: string | null;
  buyer_telegram_id: number | null;
  recipient_name: string | null;
  greeting: string | null;
  /** Who opened its link in the bot (told before it expires). */
  recipient_telegram_id: number | null;
  expires_at: Timestamp;
  created_at: Timestamp;
  created_by_user_id: number | null;
  /** null while a purchase waits for its payment. */
  paid_at: Timestamp | null;
  pay_method: 'cash' | 'card' | 'bank_transfer' | 'telegram' | null;
  /** The payments row of the sale. */
  payment_id: number | null;
  voided_at: Timestamp | null;
  void_reason: string | null;
  /** What its Telegram invoice's payload names it by (bought in Telegram), unique. */
  invoice_token: string | null;
  /** When the reminder before expiry was sent, and when the expiry was written off. */
  reminded_at: Timestamp | null;
  expired_at: Timestamp | null;
}

/** A certificate's ledger, only appended: the signed change of its balance. */
export interface CertificateEntriesTable {
  id: Generated<number>;
  certificate_id: number;
  kind: 'sale' | 'redemption' | 'return' | 'expiry' | 'void';
  /** RSD: the change of an amount certificate's balance, or the value a places certificate's change covered. */
  amount: number;
  /** The change of a places certificate's places (null on an amount certificate). */
  places: number | null;
  record_id: number | null;
  payment_id: number | null;
  note: string | null;
  recorded_by_kind: 'staff' | 'customer' | 'system';
  recorded_by_user_id: number | null;
  at: Timestamp;
}

/**
 * The fiscal outbox and its receipts: one row per receipt the PFR must issue (core/fiscal/receipts.ts
 * decides which), written in the transaction of what it fiscalizes, kept once by `receipt_key`.
 */
export interface FiscalReceiptsTable {
  id: Generated<number>;
  /** What it fiscalizes, e.g. `payment:12`, `close:7`, `sale:7`: unique, so nothing is fiscalized twice. */
  receipt_key: string;
  /** The case of the mapping table (advance, refund, close_advance, sale, …). */
  kind: string;
  invoice_type: 'Normal' | 'Advance' | 'Copy' | 'Training' | 'Proforma';
  transaction_type: 'Sale' | 'Refund';
  /** The ledger row it fiscalizes (null for a delivery's receipts). */
  payment_id: number | null;
  record_id: number | null;
  certificate_id: number | null;
  /** Whole RSD, positive: the transaction type says the direction. */
  amount: number;
  /** The main payment type: Cash, Card, WireTransfer, Voucher, MobileMoney, Other. */
  payment_type: string;
  /** JSON list of the ledger rows (ids) a delivery's receipt fiscalizes besides `payment_id` (door money, vouchers, credit). */
  covers: string | null;
  /** JSON list `[{ paymentType, amount }]`: the body's payments, fixed when the row is written (core/fiscal/receipts.ts). */
  parts: string | null;
  /** The moment the money moved (a bank transfer seen a day late keeps its day): the request's ESIR time. */
  esir_time: Timestamp;
  /** The receipt this one refers to (a refund to its sale, a delivery's sale to its advance refund). */
  referent_receipt_id: number | null;
  /** Buyer identification `<code>:<number>` (10 PIB, 20 ID card, 22 foreigner's ID, 23 passport …). */
  buyer_id: string | null;
  /** The PFR's idempotency key: the same for every attempt of this receipt. */
  request_id: string;
  /** The body as first sent (JSON), frozen so a retry sends exactly the same request. */
  request: string | null;
  mode: 'lpfr' | 'manual';
  training: Bool;
  /** waiting: to send (or, manual, for staff to type); needs_buyer: a refund waits for the buyer's ID; refused: the PFR refused it (staff). */
  state: 'waiting' | 'needs_buyer' | 'issued' | 'refused';
  attempts: number;
  next_attempt_at: Timestamp;
  claimed_by: string | null;
  locked_until: Timestamp | null;
  last_error: string | null;
  /** The PFR's answer. */
  invoice_number: string | null;
  invoice_counter: string | null;
  sdc_time: Timestamp | null;
  verification_url: string | null;
  /** The verification QR code as the PFR sent it (base64 GIF). */
  verification_qr: string | null;
  /** The receipt's text as the PFR rendered it. */
  journal: string | null;
  total_amount: number | null;
  /** Manual mode: who typed the number. */
  issued_by_user_id: number | null;
  created_at: Timestamp;
  issued_at: Timestamp | null;
  /** The first print from the admin (the original); every later print is a copy. */
  printed_at: Generated<Timestamp | null>;
}

/**
 * Where an advance receipt's money is: a part held (+) by a booking, a customer's studio credit, a gift
 * certificate or an erased customer's owed refund (the ledger row that took their credit), or leaving it
 * (−): moved to another holder, closed at delivery or paid back (`receipt_id`: that receipt).
 */
export interface FiscalAdvancesTable {
  id: Generated<number>;
  /** The Advance Sale receipt the money came in with. */
  advance_id: number;
  holder: 'record' | 'credit' | 'certificate' | 'owed';
  /** The booking, the customer's Telegram id, the certificate, the erased credit's ledger row. */
  holder_id: number;
  amount: number;
  /** The advance's payment type (its receipt's). */
  payment_type: string;
  /** The receipt that closed or paid back this part. */
  receipt_id: number | null;
  /** The ledger row that moved it. */
  payment_id: number | null;
  created_at: Timestamp;
}

/** The fiscal sender's view of the PFR (one row, id 1): the current outage, if any. */
export interface FiscalHealthTable {
  id: number;
  state: 'ok' | 'pin_required' | 'unreachable';
  /** When this state began. */
  since: Timestamp | null;
  /** Staff were told of this state (once, whichever instance saw it first). */
  alerted: Bool;
  /** Staff were told of anything since the outage began: they hear when it ends. */
  outage_alerted: Bool;
  last_error: string | null;
  /** When an instance last entered the configured PIN (one at a time). */
  pin_attempt_at: Timestamp | null;
  /** The PFR refused the configured PIN in this outage: nobody enters it again until the outage ends. */
  pin_refused: Bool;
  updated_at: Timestamp | null;
}

/** A Telegram customer's answer to a question asked once (e_receipts: their fiscal receipts sent in Telegram). */
export interface CustomerConsentsTable {
  telegram_id: number;
  kind: 'e_receipts';
  /** null: asked, not answered yet. */
  given: Bool | null;
  asked_at: Timestamp;
  answered_at: Timestamp | null;
}

/** A refund receipt whose buyer's ID was asked of its customer (asked), or that had nobody to ask: each is asked once. */
export interface FiscalBuyerAsksTable {
  receipt_id: number;
  asked: Bool;
  at: Timestamp;
}

export interface DB {
  users: UsersTable;
  workshops: WorkshopsTable;
  addresses: AddressesTable;
  schedules: SchedulesTable;
  records: RecordsTable;
  settings: SettingsTable;
  password_resets: PasswordResetsTable;
  notifications: NotificationsTable;
  telegram_links: TelegramLinksTable;
  login_failures: LoginFailuresTable;
  bot_sessions: BotSessionsTable;
  audit_log: AuditLogTable;
  business_settings: BusinessSettingsTable;
  seat_gifts: SeatGiftsTable;
  date_subscriptions: DateSubscriptionsTable;
  rate_limits: RateLimitsTable;
  telegram_updates: TelegramUpdatesTable;
  payments: PaymentsTable;
  owed_refunds: OwedRefundsTable;
  bank_statement_lines: BankStatementLinesTable;
  certificates: CertificatesTable;
  certificate_entries: CertificateEntriesTable;
  customer_notes: CustomerNotesTable;
  promo_codes: PromoCodesTable;
  promo_code_workshops: PromoCodeWorkshopsTable;
  schedule_series: ScheduleSeriesTable;
  min_people_checks: MinPeopleChecksTable;
  unreconciled_money: UnreconciledMoneyTable;
  customer_languages: CustomerLanguagesTable;
  business_connections: BusinessConnectionsTable;
  business_chats: BusinessChatsTable;
  fiscal_receipts: FiscalReceiptsTable;
  fiscal_advances: FiscalAdvancesTable;
  customer_consents: CustomerConsentsTable;
  fiscal_buyer_asks: FiscalBuyerAsksTable;
  fiscal_health: FiscalHealthTable;
}
