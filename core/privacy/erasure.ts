import { z } from 'zod';
import type { Database, Executor } from '../../db/database';
import {
  getRecordsByIds,
  listAuditMentioning,
  listNotificationPayloads,
  setAuditValues,
  setNotificationPayload,
} from '../../db/repositories/personal-data';
import { erasePersonalInPayload } from '../notify/notifications';
import { erasePersonal, personal, type ErasureScope, type Owner } from '../notify/personal';
import { BookingLogValues } from '../notify/publish';

/*
 * Erasing the copies of a person's values: outbox payloads and audit entries, walked by what their
 * schemas declare personal (core/notify/personal.ts). Who is erased is an Erasure: a Telegram user
 * (their bookings now and the bookings that were theirs, which they gave to a friend), or, for
 * retention, bookings whatever their owner.
 */

export interface Erasure extends ErasureScope {
  /** Every booking whose copies may hold the values. */
  recordIds: Set<number>;
  /** The Telegram user erased; null when bookings are (retention). */
  telegramId: number | null;
}

/** Everything of these bookings, whoever owned them (retention). */
export function bookingsErasure(ids: number[], stage: 'health' | 'all'): Erasure {
  const recordIds = new Set(ids);
  return { stage, recordIds, telegramId: null, owns: (o) => o.record_id !== undefined && recordIds.has(o.record_id) };
}

/**
 * A Telegram user's values: where a copy names its owner, those whose owner is them; where it names
 * none (a booking staff took with only their @login), their bookings' copies; copies written before
 * owners were recorded, of every booking that is or was theirs.
 */
export function personErasure(telegramId: number, theirs: number[], given: number[]): Erasure {
  const now = new Set(theirs);
  const ever = new Set([...theirs, ...given]);
  const owns = (o: Owner) =>
    typeof o.telegram_id === 'number'
      ? o.telegram_id === telegramId
      : o.record_id !== undefined && (o.telegram_id === null ? now : ever).has(o.record_id);
  return { stage: 'all', recordIds: ever, telegramId, owns };
}

/** As JSON.stringify writes a Telegram id into a log entry's values. */
const telegramIdFragments = (id: number) => [`"telegram_id":${id},`, `"telegram_id":${id}}`];

/**
 * Bookings that were this Telegram user's and are someone else's now: the log names them as the owner
 * a booking was handed on from, or as the customer who changed it (who made it, first of all).
 */
export async function givenAwayBookings(
  trx: Executor,
  database: Database,
  telegramId: number,
  theirs: number[],
): Promise<number[]> {
  const entries = await listAuditMentioning(trx, database.dialect, {
    recordIds: [],
    telegramId,
    fragments: telegramIdFragments(telegramId),
  });
  const now = new Set(theirs);
  return [...new Set(entries.filter((e) => e.entity === 'record' && !now.has(e.entity_id)).map((e) => e.entity_id))];
}

/** The Telegram account a staff account's log entries name (linked, unlinked). */
const StaffAccountLogValues = z.object({
  telegram_id: personal(z.number().nullable()),
  telegram_login: personal(z.string().nullable()),
});

const parse = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

type Entry = Awaited<ReturnType<typeof listAuditMentioning>>[number];

const telegramIdIn = (text: string | null) => {
  const v = parse(text) as { telegram_id?: unknown } | null;
  return typeof v?.telegram_id === 'number' ? v.telegram_id : null;
};

/** Whose values each log entry of one booking holds, before and after: the owner changes only where it was handed on. */
function ownersOf(
  entries: Entry[],
  ownerNow: number | null,
): Map<number, { before: number | null; after: number | null }> {
  const handedOn = entries.find((e) => e.action === 'transferred');
  let owner = handedOn ? telegramIdIn(handedOn.before) : ownerNow;
  const out = new Map<number, { before: number | null; after: number | null }>();
  for (const e of entries) {
    const before = owner;
    if (e.action === 'transferred') owner = telegramIdIn(e.after);
    out.set(e.id, { before, after: owner });
  }
  return out;
}

const SCAN_PAGE = 1000;
const RECORD_ID = /"record_id":(\d+)/g;

/**
 * Erases the erasure's values from every outbox payload and audit entry. Run it before the bookings
 * themselves are anonymised: who owns a booking now tells whose its history is.
 */
export async function eraseCopies(trx: Executor, database: Database, e: Erasure): Promise<void> {
  // Every personal value in a payload belongs to a booking the payload names, so only payloads that
  // name one of these bookings are read. The outbox is small (sent rows go after 30 days): one pass.
  for (let after = 0; ;) {
    const page = await listNotificationPayloads(trx, after, SCAN_PAGE);
    for (const n of page) {
      if (![...n.payload.matchAll(RECORD_ID)].some((m) => e.recordIds.has(Number(m[1])))) continue;
      const payload = parse(n.payload);
      if (typeof payload !== 'object' || payload === null) continue;
      const erased = JSON.stringify(erasePersonalInPayload(n.kind, payload, e));
      if (erased !== JSON.stringify(payload)) await setNotificationPayload(trx, n.id, erased);
    }
    if (page.length < SCAN_PAGE) break;
    after = page[page.length - 1].id;
  }

  // The audit log: every entry of these bookings (by index), and anything else naming the Telegram
  // user (an entry they made, a staff account linked to them).
  const ids = [...e.recordIds];
  const entries = await listAuditMentioning(trx, database.dialect, {
    recordIds: ids,
    telegramId: e.telegramId,
    fragments: e.telegramId !== null ? telegramIdFragments(e.telegramId) : [],
  });
  const ownerNow = new Map((await getRecordsByIds(trx, ids)).map((r) => [r.id, r.telegram_id]));
  const owners = new Map<number, { before: number | null; after: number | null }>();
  for (const id of ids) {
    const ofRecord = entries.filter((a) => a.entity === 'record' && a.entity_id === id);
    for (const [entry, o] of ownersOf(ofRecord, ownerNow.get(id) ?? null)) owners.set(entry, o);
  }
  for (const a of entries) {
    const o = owners.get(a.id);
    const values = (text: string | null, owner: Owner) => {
      const v = parse(text);
      if (typeof v !== 'object' || v === null) return text;
      const erased = JSON.stringify(erasePersonal(o ? BookingLogValues : StaffAccountLogValues, v, e, owner));
      return erased === JSON.stringify(v) ? text : erased;
    };
    // A booking's entry is its owner's at the time; a staff account's names the Telegram account it holds.
    const ownerOf = (text: string | null, telegramId: number | null | undefined): Owner =>
      o ? { record_id: a.entity_id, telegram_id: telegramId } : { telegram_id: telegramIdIn(text) };
    const before = values(a.before, ownerOf(a.before, o?.before));
    const after = values(a.after, ownerOf(a.after, o?.after));
    // Who acted: the person erased; for retention, every customer who changed these bookings.
    const actor =
      a.actor_telegram_id !== null &&
      (a.actor_telegram_id === e.telegramId || (e.telegramId === null && e.stage === 'all' && o !== undefined))
        ? null
        : a.actor_telegram_id;
    if (before !== a.before || after !== a.after || actor !== a.actor_telegram_id)
      await setAuditValues(trx, a.id, { before, after, actor_telegram_id: actor });
  }
}
