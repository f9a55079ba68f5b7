import { isPast } from '../../contract/format';
import { nowIso, type Database, type Executor } from '../../db/database';
import { withScheduleLock } from '../../db/lock';
import { listRecordsOfSchedules } from '../../db/repositories/records';
import { getSchedule, setScheduleCancelled } from '../../db/repositories/schedules';
import { assertCan, type Actor } from '../kernel/actor';
import { Conflict, NotFound } from '../kernel/errors';
import { MSG } from '../kernel/messages';
import { allowedActions } from '../booking/allowed';
import { cancelLocked, loadSchedule } from '../booking/engine';
import type { DomainEvent } from '../kernel/events';
import { publish } from '../notify/publish';
import { getBusinessSettings } from '../kernel/settings';

export const CANCEL_SESSION_MSG = {
  already: 'sessionAlreadyCancelled',
  past: 'sessionPast',
} as const;

/** Why a session cannot be cancelled (already cancelled, or past), or null: the cancel's own rule, shown beforehand. */
export const cancelRefusal = (s: { date: string; cancelled_at: string | null }) =>
  s.cancelled_at ? CANCEL_SESSION_MSG.already : isPast(s.date) ? CANCEL_SESSION_MSG.past : null;

/**
 * Staff cancel an upcoming session instead of deleting it: it stays in history with the reason, and
 * every open booking is cancelled through the booking engine under the session's lock, so money goes
 * back by the money rules, and each customer is told the reason with other dates; staff get one alert
 * for the session. The queue goes first, so no seat freed by the cancel promotes anyone.
 */
export async function cancelSession(database: Database, actor: Actor, id: number, reason: string): Promise<void> {
  assertCan(actor, 'schedule.manage');
  await withScheduleLock(database, id, async (trx) => publish(trx, await cancelSessionLocked(trx, actor, id, reason)));
}

/**
 * The cancel itself, in a transaction that holds the session's lock; returns the events to publish.
 * `byRule`: the minimum-participants rule cancelled it (staff's alert says so).
 */
export async function cancelSessionLocked(
  trx: Executor,
  actor: Actor,
  id: number,
  reason: string,
  byRule = false,
): Promise<DomainEvent[]> {
  const row = await getSchedule(trx, id);
  if (!row) throw new NotFound(MSG.scheduleNotFound);
  const refused = cancelRefusal(row);
  if (refused) throw new Conflict(refused);
  await setScheduleCancelled(trx, id, reason, nowIso());
  const schedule = await loadSchedule(trx, id);
  const settings = await getBusinessSettings(trx);
  const now = new Date();
  const open = (await listRecordsOfSchedules(trx, [id])).filter((r) => r.state !== 'CANCELLED');
  const queued = open.filter((r) => r.state === 'QUEUED');
  const active = open.filter((r) => r.state === 'ACTIVE');
  const events: DomainEvent[] = [
    {
      type: 'schedule.cancelled',
      actor,
      schedule,
      reason,
      by_rule: byRule,
      bookings: active.length,
      people: active.reduce((n, r) => n + r.people_count, 0),
      queued: queued.length,
    },
  ];
  for (const record of [...queued, ...active]) {
    const allowed = allowedActions({ actor, record, schedule, settings, now });
    const out = await cancelLocked({ trx, actor, record, schedule, settings, allowed, now }, reason);
    for (const e of out.events) events.push(e.type === 'record.cancelled' ? { ...e, session_cancelled: true } : e);
  }
  return events;
}
