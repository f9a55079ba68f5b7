import { ERASED_NAME, type ForgetResult, type PersonalDataExport } from '../../contract';
import { bool, nowIso, type Database, type Executor } from '../../db/database';
import { lockSchedules, withLocks, withWriteTransaction } from '../../db/lock';
import {
  anonymiseRecords,
  countNotificationsTo,
  deleteFinishedNotificationsBefore,
  deleteNotificationsTo,
  deleteSeatGiftsOf,
  deleteSubscriptionsOf,
  eraseHealthOfRecords,
  getStaffOfTelegram,
  listAuditMentioning,
  listAuditOfRecords,
  listBookingsOfPerson,
  listNotificationPayloads,
  listRecordsDueForErasure,
  listSubscriptionsOf,
  setAuditValues,
  setNotificationPayload,
  unlinkStaffTelegram,
} from '../../db/repositories/personal-data';
import { deleteBotSessionsOfChat } from '../../db/repositories/botSessions';
import type { RecordRow } from '../../db/repositories/records';
import { SYSTEM, type Actor } from '../kernel/actor';
import { publish } from '../notify/publish';
import { getBusinessSettings } from '../staff/business-settings';
import { cancelLocked } from '../booking/engine';
import { loadForActor } from '../booking/command';

/*
 * A customer's personal data: what the export shows, and erasure. Erasing a booking keeps the row
 * (party size, dates, state, source, attendance, rating: counts and statistics stay right) and
 * replaces what identifies the person; every copy elsewhere in the database (outbox payloads,
 * audit before/after values, subscriptions, bot conversation state) goes with it.
 */

/** Who asks: the Telegram user from verified init data or the bot update. */
export interface TelegramPerson {
  id: number;
  username?: string | null;
}

/** The reason a forgotten customer's upcoming bookings are cancelled with (staff see it). */
export const FORGET_REASON = 'Клиент удалил свои персональные данные';

const loginsOf = (p: TelegramPerson) => (p.username ? [p.username, `@${p.username}`] : []);

const parseJson = (s: string | null): unknown => {
  if (s === null) return null;
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return s;
  }
};

/** Everything stored about a Telegram user: bookings with their sessions, subscriptions, the bookings' history. */
export async function exportPersonalData(db: Executor, person: TelegramPerson): Promise<PersonalDataExport> {
  const rows = await listBookingsOfPerson(db, person.id, loginsOf(person));
  const history = await listAuditOfRecords(
    db,
    rows.map((r) => r.id),
  );
  const staff = await getStaffOfTelegram(db, person.id);
  return {
    telegram_id: person.id,
    exported_at: nowIso(),
    bookings: rows.map(({ schedule_date, workshop_title, address_title, schedule_id: _, ...r }) => ({
      ...r,
      workshop: workshop_title,
      date: schedule_date,
      address: address_title,
      has_allergy: bool(r.has_allergy),
      is_first_time: bool(r.is_first_time),
    })),
    subscriptions: await listSubscriptionsOf(db, person.id),
    history: history.map((h) => ({
      record_id: h.entity_id,
      action: h.action,
      at: h.at,
      before: parseJson(h.before),
      after: parseJson(h.after),
    })),
    messages: await countNotificationsTo(db, person.id),
    staff_account: staff ? { email: staff.email, full_name: staff.full_name } : null,
  };
}

/* ---------- erasure ---------- */

/** What identifies the people whose data goes: their bookings, names and logins. */
export interface ErasureTarget {
  recordIds: Set<number>;
  /** Exact strings that name them (full names as the digest writes them, logins with and without @); empty for retention. */
  names: Set<string>;
  telegramId: number | null;
  /** 'health': only allergies and comments; 'all': everything personal. */
  stage: 'health' | 'all';
}

const HEALTH_KEYS = new Set(['comment', 'allergy', 'allergy_type']);
const NAME_KEYS = new Set(['name', 'full_name']);
const NULLED_KEYS = new Set(['last_name', 'telegram_login', 'telegram_id', 'username', 'first_name']);

const TELEGRAM_KEY = /telegram|chat/;

const displayName = (r: Pick<RecordRow, 'name' | 'last_name'>) => [r.name, r.last_name].filter(Boolean).join(' ');

/** A booking carries its id; anything else (a digest's allergy line) is about the person when it names them. */
function isAbout(o: Record<string, unknown>, t: ErasureTarget): boolean {
  if (typeof o.record_id === 'number') return t.recordIds.has(o.record_id);
  return Object.entries(o).some(
    ([k, v]) =>
      ((NAME_KEYS.has(k) || k === 'telegram_login') && typeof v === 'string' && t.names.has(v)) ||
      (t.telegramId !== null && TELEGRAM_KEY.test(k) && v === t.telegramId),
  );
}

/** Replaces the personal values in a JSON value (an outbox payload, an audit before/after), keeping its shape. */
export function scrubJson(value: unknown, t: ErasureTarget, about = false): unknown {
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, t, about));
  // A name anywhere (a gift's giver_name, a digest line) is theirs when it is exactly one of their names.
  if (typeof value === 'string') return t.stage === 'all' && t.names.has(value) ? ERASED_NAME : value;
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  const mine = about || isAbout(o, t);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (mine && HEALTH_KEYS.has(k) && typeof v === 'string') out[k] = ERASED_NAME;
    else if (mine && k === 'has_allergy') out[k] = false;
    else if (mine && t.stage === 'all' && NAME_KEYS.has(k) && typeof v === 'string') out[k] = ERASED_NAME;
    else if (mine && t.stage === 'all' && NULLED_KEYS.has(k)) out[k] = null;
    else if (t.telegramId !== null && TELEGRAM_KEY.test(k) && v === t.telegramId) out[k] = null;
    else out[k] = scrubJson(v, t);
  }
  return out;
}

const SCAN_PAGE = 1000;
const RECORD_ID = /"record_id":(\d+)/g;

/** The fragments of a JSON text that mentions the target (as JSON.stringify writes them). */
function fragmentsOf(t: ErasureTarget): string[] {
  const ids = [...t.recordIds].flatMap((id) => [`"record_id":${id},`, `"record_id":${id}}`]);
  const names = [...t.names].map((n) => JSON.stringify(n));
  const tg = t.telegramId !== null ? [`:${t.telegramId},`, `:${t.telegramId}}`] : [];
  return [...ids, ...names, ...tg];
}

const rewrite = (text: string | null, t: ErasureTarget, about: boolean): string | null => {
  if (text === null) return null;
  const parsed = parseJson(text);
  return typeof parsed === 'string' ? text : JSON.stringify(scrubJson(parsed, t, about));
};

/** Erases the target from its bookings and from every copy of their values elsewhere in the database. */
async function erase(trx: Executor, database: Database, t: ErasureTarget, now: string): Promise<void> {
  const ids = [...t.recordIds];
  if (t.stage === 'all') await anonymiseRecords(trx, ids, ERASED_NAME, now);
  else await eraseHealthOfRecords(trx, ids, now);

  // The outbox is small (sent rows go after 30 days): its payloads are tested here, in one pass,
  // rather than with a LIKE per booking.
  const names = fragmentsOf({ ...t, recordIds: new Set() });
  for (let after = 0; ;) {
    const page = await listNotificationPayloads(trx, after, SCAN_PAGE);
    for (const n of page) {
      const ofTheirs = [...n.payload.matchAll(RECORD_ID)].some((m) => t.recordIds.has(Number(m[1])));
      if (!ofTheirs && !names.some((f) => n.payload.includes(f))) continue;
      const payload = rewrite(n.payload, t, false);
      if (payload !== null && payload !== n.payload) await setNotificationPayload(trx, n.id, payload);
    }
    if (page.length < SCAN_PAGE) break;
    after = page[page.length - 1].id;
  }
  // The audit log grows for good: entries of their bookings come by index; anything else that names
  // them (a booking handed on, a staff account) carries their Telegram id.
  const entries = await listAuditMentioning(trx, database.dialect, {
    recordIds: ids,
    telegramId: t.telegramId,
    fragments: t.telegramId !== null ? [`:${t.telegramId},`, `:${t.telegramId}}`] : [],
  });
  for (const a of entries) {
    // An entry of their booking holds its fields at the top level; any other entry (a booking handed
    // to a friend, a staff account) loses only the values that name them.
    const ofTheirs = a.entity === 'record' && t.recordIds.has(a.entity_id);
    await setAuditValues(trx, a.id, {
      before: rewrite(a.before, t, ofTheirs),
      after: rewrite(a.after, t, ofTheirs),
      actor_telegram_id:
        a.actor_telegram_id === t.telegramId || (ofTheirs && t.stage === 'all') ? null : a.actor_telegram_id,
    });
  }
}

/**
 * The customer's right to be forgotten: their upcoming bookings are cancelled through the booking
 * engine (the queue fills, staff are told as with any cancel), then every booking of theirs is
 * anonymised, and their subscriptions, bot conversation state and messages go. `actor` is who asked:
 * the customer (logged without their id) or a superuser, for a request that reached the studio
 * another way.
 */
export async function forgetPerson(database: Database, person: TelegramPerson, actor: Actor): Promise<ForgetResult> {
  // The customer's lock first: no booking of theirs can start or change hands until this commits, so the
  // bookings listed under it are all there are; then the sessions of those to cancel.
  return withLocks(database, { telegramIds: [person.id] }, async (trx) => {
    const now = nowIso();
    const upcoming = (await listBookingsOfPerson(trx, person.id, loginsOf(person))).filter(
      (r) => r.state !== 'CANCELLED' && r.schedule_date > now,
    );
    await lockSchedules(
      database,
      trx,
      upcoming.map((r) => r.schedule_id),
    );
    let cancelled = 0;
    for (const r of upcoming) {
      // The system cancels: a change deadline binds the customer's own changes, not their erasure.
      const { events } = await cancelLocked(await loadForActor(trx, SYSTEM, r.id), FORGET_REASON);
      await publish(trx, events);
      cancelled++;
    }
    const rows = await listBookingsOfPerson(trx, person.id, loginsOf(person));
    const names = new Set(loginsOf(person));
    for (const r of rows) {
      if (r.anonymised_at === null) names.add(displayName(r));
      if (r.telegram_login)
        for (const l of loginsOf({ id: person.id, username: r.telegram_login.replace(/^@/, '') })) names.add(l);
    }
    const t: ErasureTarget = { recordIds: new Set(rows.map((r) => r.id)), names, telegramId: person.id, stage: 'all' };
    await erase(trx, database, t, nowIso());
    await deleteSeatGiftsOf(trx, [...t.recordIds]);
    await deleteNotificationsTo(trx, person.id);
    await deleteSubscriptionsOf(trx, person.id);
    await deleteBotSessionsOfChat(trx, person.id);
    await unlinkStaffTelegram(trx, person.id);
    // That an erasure happened, and who asked (never whose: that is what was erased).
    await publish(trx, [
      {
        type: 'entity.erased',
        actor,
        entity: 'personal_data',
        entity_id: 0,
        after: { cancelled, anonymised: rows.length },
      },
    ]);
    return { cancelled, anonymised: rows.length };
  });
}

/* ---------- retention ---------- */

const DAY_MS = 86_400_000;
/** Delivered outbox rows are kept this long (to answer "did the customer get it?"), then deleted. */
export const SENT_MESSAGES_KEPT_DAYS = 30;
/** Bookings erased per transaction, and transactions per run: a backlog is worked off over a few ticks. */
const BATCH = 200;
const BATCHES_PER_RUN = 10;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/**
 * The retention job: bookings of schedules older than `allergy_retention_days` lose their allergy and
 * comment, those older than `retention_days` everything personal; delivered messages older than 30
 * days are deleted. Each step selects only what still holds data, so a rerun does nothing.
 */
export async function runRetention(database: Database, now: Date): Promise<number> {
  const settings = await getBusinessSettings(database.db);
  let done = 0;
  const stages = [
    { stage: 'health' as const, before: daysBefore(now, settings.allergy_retention_days) },
    { stage: 'all' as const, before: daysBefore(now, settings.retention_days) },
  ];
  for (const { stage, before } of stages) {
    for (let i = 0; i < BATCHES_PER_RUN; i++) {
      const n = await withWriteTransaction(database, async (trx) => {
        const ids = (await listRecordsDueForErasure(trx, stage, before, BATCH)).map((r) => r.id);
        const t: ErasureTarget = { recordIds: new Set(ids), names: new Set(), telegramId: null, stage };
        if (ids.length > 0) await erase(trx, database, t, now.toISOString());
        if (stage === 'all') await deleteSeatGiftsOf(trx, ids);
        return ids.length;
      });
      done += n;
      if (n < BATCH) break;
    }
  }
  done += await deleteFinishedNotificationsBefore(database.db, daysBefore(now, SENT_MESSAGES_KEPT_DAYS));
  return done;
}
