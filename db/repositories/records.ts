import type { Insertable, Selectable } from 'kysely';
import { isCancelled, type RecordPublic, type RecordState } from '../../contract/records';
import { allColumns, bool, flag, nowIso, type Executor } from '../database';
import { prepared } from '../prepared';
import type { RecordsTable } from '../schema';

export type RecordRow = Selectable<RecordsTable>;

/** A booking's columns in the table's order (the hottest statements name them: db/database.ts allColumns). */
export const RECORD_COLUMNS = allColumns<RecordsTable>()([
  'id',
  'schedule_id',
  'state',
  'name',
  'last_name',
  'people_count',
  'telegram_login',
  'telegram_id',
  'comment',
  'has_allergy',
  'allergy_type',
  'source',
  'is_first_time',
  'cancel_reason',
  'queued_at',
  'created_at',
  'updated_at',
  'attendance',
  'active_since',
  'confirmed_at',
  'rating',
  'consent_at',
  'consent_version',
  'health_erased_at',
  'anonymised_at',
  'unit_price',
  'price_override',
  'price_override_reason',
  'pay_by',
  'certificate_id',
  'promo_code_id',
  'discount',
  'price_override_party',
  'promo_telegram_id',
  'credit_declined',
]);

export const toRecordPublic = (r: RecordRow): RecordPublic => ({
  id: r.id,
  schedule_id: r.schedule_id,
  state: r.state,
  name: r.name,
  last_name: r.last_name,
  people_count: r.people_count,
  telegram_login: r.telegram_login,
  telegram_id: r.telegram_id,
  comment: r.comment,
  has_allergy: bool(r.has_allergy),
  allergy_type: r.allergy_type,
  source: r.source,
  is_first_time: bool(r.is_first_time),
  cancel_reason: r.cancel_reason,
  attendance: r.attendance,
  is_cancelled: isCancelled(r.state),
  created_at: r.created_at,
  confirmed_at: r.confirmed_at,
  rating: r.rating,
  discount: r.discount,
});

const recordById = prepared((db: Executor, id: number) =>
  db.selectFrom('records').select(RECORD_COLUMNS).where('id', '=', id),
);

export const getRecord = async (db: Executor, id: number): Promise<RecordRow | undefined> =>
  (await recordById(db, id))[0];

export interface RecordInsert {
  schedule_id: number;
  state: RecordState;
  name: string;
  last_name: string | null;
  people_count: number;
  telegram_login: string | null;
  telegram_id: number | null;
  comment: string | null;
  has_allergy: boolean;
  allergy_type: string | null;
  source: string | null;
  is_first_time: boolean;
  /** When and to which privacy text the customer consented (null: booked by staff without it). */
  consent_at?: string | null;
  consent_version?: string | null;
  /** The promo code it was made with and what that takes off its price. */
  promo_code_id?: number | null;
  discount?: number;
  /** The customer the promo code was redeemed by. */
  promo_telegram_id?: number | null;
  /** The gift certificate that pays it. */
  certificate_id?: number | null;
  /** Staff booked it without the customer's agreement to pay from their credit. */
  credit_declined?: boolean;
  /** The price per person fixed when it is booked (the money policy's onBooked sets it otherwise). */
  unit_price?: number;
}

/** What a new booking leaves to the database (its id) and to later commands. */
const SET_LATER = [
  'id',
  'attendance',
  'confirmed_at',
  'rating',
  'health_erased_at',
  'anonymised_at',
  'price_override',
  'price_override_reason',
  'price_override_party',
  'pay_by',
] as const;
type InsertColumn = Exclude<(typeof RECORD_COLUMNS)[number], (typeof SET_LATER)[number]>;
/** The columns a booking is inserted with: always all of them, so the statement is built once. */
const INSERT_COLUMNS = RECORD_COLUMNS.filter((c): c is InsertColumn => !(SET_LATER as readonly string[]).includes(c));

const recordInsert = prepared((db: Executor, ...values: unknown[]) =>
  db
    .insertInto('records')
    .values(Object.fromEntries(INSERT_COLUMNS.map((c, i) => [c, values[i]])) as Insertable<RecordsTable>)
    .returning(RECORD_COLUMNS),
);

export async function insertRecord(db: Executor, r: RecordInsert) {
  const now = nowIso();
  const row: Record<InsertColumn, unknown> = {
    schedule_id: r.schedule_id,
    state: r.state,
    name: r.name,
    last_name: r.last_name,
    people_count: r.people_count,
    telegram_login: r.telegram_login,
    telegram_id: r.telegram_id,
    comment: r.comment,
    has_allergy: flag(r.has_allergy),
    allergy_type: r.allergy_type,
    source: r.source,
    is_first_time: flag(r.is_first_time),
    cancel_reason: null,
    queued_at: r.state === 'QUEUED' ? now : null,
    active_since: r.state === 'ACTIVE' ? now : null,
    created_at: now,
    updated_at: now,
    consent_at: r.consent_at ?? null,
    consent_version: r.consent_version ?? null,
    promo_code_id: r.promo_code_id ?? null,
    discount: r.discount ?? 0,
    promo_telegram_id: r.promo_telegram_id ?? null,
    certificate_id: r.certificate_id ?? null,
    credit_declined: flag(r.credit_declined ?? false),
    unit_price: r.unit_price ?? 0,
  };
  return (await recordInsert(db, ...INSERT_COLUMNS.map((c) => row[c])))[0] as RecordRow;
}

export interface RecordPatch {
  state?: RecordState;
  people_count?: number;
  cancel_reason?: string | null;
  queued_at?: string | null;
  attendance?: 'ATTENDED' | 'NO_SHOW' | null;
  promo_code_id?: number | null;
  discount?: number;
}

/** A record that becomes ACTIVE remembers when (reminders due before that moment are skipped). */
export const updateRecord = (db: Executor, id: number, patch: RecordPatch) =>
  db
    .updateTable('records')
    .set({ ...patch, ...(patch.state === 'ACTIVE' && { active_since: nowIso() }), updated_at: nowIso() })
    .where('id', '=', id)
    .returning(RECORD_COLUMNS)
    .executeTakeFirstOrThrow();

/** Seats taken in a schedule: people on its ACTIVE records. */
export async function takenSeats(db: Executor, scheduleId: number): Promise<number> {
  const [row] = await seatsTaken(db, scheduleId);
  return Number(row?.taken ?? 0);
}

const seatsTaken = prepared((db: Executor, scheduleId: number) =>
  db
    .selectFrom('records')
    .select((eb) => eb.fn.sum<number | string | null>('people_count').as('taken'))
    .where('schedule_id', '=', scheduleId)
    .where('state', '=', 'ACTIVE'),
);

/**
 * For a new booking, in one statement: the seats taken in the schedule and the customer's open
 * (not cancelled) booking of it, if any (`telegramId` null: none looked for).
 */
export async function seatsAndOpenBooking(
  db: Executor,
  scheduleId: number,
  telegramId: number | null,
): Promise<{ taken: number; openId: number | null }> {
  const [row] = await seatsAndOpen(db, scheduleId, telegramId);
  return { taken: Number(row?.taken ?? 0), openId: row?.open_id == null ? null : Number(row.open_id) };
}

// Two subqueries, each on its own index (a session's ACTIVE records; the customer's records).
const seatsAndOpen = prepared((db: Executor, scheduleId: number, telegramId: number | null) =>
  db.selectNoFrom((eb) => [
    eb
      .selectFrom('records')
      .select((e) => e.fn.sum<number | string | null>('people_count').as('taken'))
      .where('schedule_id', '=', scheduleId)
      .where('state', '=', 'ACTIVE')
      .as('taken'),
    eb
      .selectFrom('records')
      .select('id')
      .where('telegram_id', '=', telegramId)
      .where('schedule_id', '=', scheduleId)
      .where('state', '!=', 'CANCELLED')
      .limit(1)
      .as('open_id'),
  ]),
);

/** The schedule's queue in the order it is served. */
export const listQueue = (db: Executor, scheduleId: number) =>
  db
    .selectFrom('records')
    .selectAll()
    .where('schedule_id', '=', scheduleId)
    .where('state', '=', 'QUEUED')
    .orderBy('queued_at')
    .orderBy('id')
    .execute();

/** 1-based position of a QUEUED record in its schedule's queue. */
export async function queuePosition(
  db: Executor,
  r: Pick<RecordRow, 'id' | 'schedule_id' | 'queued_at'>,
): Promise<number> {
  const row = await db
    .selectFrom('records')
    .select((eb) => eb.fn.countAll<number>().as('ahead'))
    .where('schedule_id', '=', r.schedule_id)
    .where('state', '=', 'QUEUED')
    .where((eb) =>
      eb.or([
        eb('queued_at', '<', r.queued_at ?? ''),
        eb.and([eb('queued_at', '=', r.queued_at ?? ''), eb('id', '<', r.id)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.ahead) + 1;
}

/** A Telegram user's booking in a schedule that is not cancelled, if any. */
export const findOpenBooking = (db: Executor, scheduleId: number, telegramId: number, exceptId = 0) =>
  db
    .selectFrom('records')
    .select('id')
    .where('schedule_id', '=', scheduleId)
    .where('telegram_id', '=', telegramId)
    .where('state', '!=', 'CANCELLED')
    .where('id', '!=', exceptId)
    .executeTakeFirst();

export const listRecordsOfSchedules = (db: Executor, scheduleIds: number[]) =>
  scheduleIds.length === 0
    ? Promise.resolve([] as RecordRow[])
    : db.selectFrom('records').selectAll().where('schedule_id', 'in', scheduleIds).orderBy('id').execute();

/**
 * A customer's bookings in sessions that have not started yet, soonest first, each with its session's
 * date, its workshop's titles and its 1-based place in the queue (null unless QUEUED): one query for
 * the whole list (the bot's /my and /cancel), on SQLite and PostgreSQL alike.
 */
export const listUpcomingBookingsOfTelegramUser = (db: Executor, telegramId: number, now: string) =>
  db
    .selectFrom('records as r')
    .innerJoin('schedules as s', 's.id', 'r.schedule_id')
    .innerJoin('workshops as w', 'w.id', 's.workshop_id')
    .selectAll('r')
    .select(['s.date as schedule_date', 's.cancelled_at as schedule_cancelled_at'])
    .select(['w.title as workshop_title', 'w.title_en as workshop_title_en', 'w.title_sr as workshop_title_sr'])
    .select((eb) =>
      eb
        .case()
        .when('r.state', '=', 'QUEUED')
        .then(
          // Those queued before it (and itself): served in queued_at order, ties by id, as listQueue serves them.
          eb
            .selectFrom('records as q')
            .select((qb) => qb.fn.countAll<number | string>().as('n'))
            .whereRef('q.schedule_id', '=', 'r.schedule_id')
            .where('q.state', '=', 'QUEUED')
            .where((qb) =>
              qb.or([
                qb('q.queued_at', '<', qb.ref('r.queued_at')),
                qb.and([qb('q.queued_at', '=', qb.ref('r.queued_at')), qb('q.id', '<=', qb.ref('r.id'))]),
              ]),
            ),
        )
        .else(null)
        .end()
        .as('queue_position'),
    )
    .where('r.telegram_id', '=', telegramId)
    .where('s.date', '>', now)
    .orderBy('s.date')
    .orderBy('r.id')
    .execute();

/** The session dates of each customer's no-shows (for "earlier no-shows" on booking rows). */
export async function listNoShowDates(db: Executor, telegramIds: number[]): Promise<Map<number, string[]>> {
  const byCustomer = new Map<number, string[]>();
  if (telegramIds.length === 0) return byCustomer;
  const rows = await db
    .selectFrom('records as r')
    .innerJoin('schedules as s', 's.id', 'r.schedule_id')
    .select(['r.telegram_id', 's.date'])
    .where('r.telegram_id', 'in', telegramIds)
    .where('r.attendance', '=', 'NO_SHOW')
    .where('r.state', '=', 'ACTIVE')
    .execute();
  for (const r of rows)
    if (r.telegram_id !== null) byCustomer.set(r.telegram_id, [...(byCustomer.get(r.telegram_id) ?? []), r.date]);
  return byCustomer;
}

/** The customer's answers to the reminders and the after-class message. */
export const setRecordResponse = (db: Executor, id: number, patch: { confirmed_at?: string | null; rating?: number }) =>
  db.updateTable('records').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/** The booking changes hands (a seat given to a friend): who it is for, their name and allergy. */
export interface RecordOwner {
  telegram_id: number;
  telegram_login: string | null;
  name: string;
  last_name: string | null;
  has_allergy: boolean;
  allergy_type: string | null;
  consent_at: string | null;
  consent_version: string | null;
  is_first_time: boolean;
  source: string | null;
}

export const setRecordOwner = (db: Executor, id: number, o: RecordOwner) =>
  db
    .updateTable('records')
    .set({
      ...o,
      has_allergy: flag(o.has_allergy),
      allergy_type: o.has_allergy ? o.allergy_type : null,
      is_first_time: flag(o.is_first_time),
      comment: null,
      confirmed_at: null,
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

/** Whether the Telegram user has any booking but `exceptId` (their first visit is not their first booking). */
export const hasBookedBefore = async (db: Executor, telegramId: number, exceptId: number) =>
  Boolean(
    await db
      .selectFrom('records')
      .select('id')
      .where('telegram_id', '=', telegramId)
      .where('id', '!=', exceptId)
      .executeTakeFirst(),
  );
