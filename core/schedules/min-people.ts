import type { BusinessSettings } from '../../contract/business-settings';
import { isPast } from '../../contract/format';
import { nowIso, type Database, type Executor } from '../../db/database';
import { withScheduleLock } from '../../db/lock';
import {
  activePeople,
  getMinPeopleCheck,
  insertMinPeopleCheck,
  listDeciders,
  listUncheckedWithMinimum,
  listUnansweredChecks,
  minimumOf,
  updateMinPeopleCheck,
  type MinPeopleCheck,
} from '../../db/repositories/min-people';
import { getSchedule } from '../../db/repositories/schedules';
import { getUserById } from '../../db/repositories/users';
import { assertCan, SYSTEM, type Actor } from '../kernel/actor';
import { Conflict, NotFound } from '../kernel/errors';
import { loadSchedule } from '../booking/engine';
import type { Published } from '../notify/publish';
import { scheduleSnapshot } from '../notify/snapshots';
import { publish } from '../notify/publish';
import { getBusinessSettings } from '../kernel/settings';
import { cancelSessionLocked } from './cancel-session';

/*
 * Minimum participants. A session (its own minimum, else its workshop's; 0: none) is checked once, at
 * `min_people_decision_hours` before its start, counting the people on ACTIVE bookings. Under its
 * minimum it is cancelled at once (`min_people_action: cancel`) or every owner and manager with a
 * linked Telegram account gets a card: cancel or run; the first press decides, and without one by
 * `min_people_grace_hours` later (never past the start) the default (`min_people_default`) happens.
 * A session created after its decision time is not checked: staff scheduled it knowing how near it is.
 *
 * Each check is claimed by its row (keyed by the session) under the session's lock, so two runs, a
 * restart or several instances decide each session once; the cards carry a dedupe key each.
 */

/** The reason a session cancelled for too few people carries (customers read it in their language). */
export const MIN_PEOPLE_REASON = 'Не набралось минимальное число участников';

export const MIN_PEOPLE_MSG = {
  notAsked: 'minPeopleNotAsked',
} as const;

const HOUR_MS = 3_600_000;
export const minPeopleCardKey = (scheduleId: number, userId: number) => `min_people:${scheduleId}:${userId}`;

/** The job: checks the sessions whose decision time has come, then applies the default where nobody answered. */
export async function runMinPeopleRule(database: Database, now = new Date()): Promise<number> {
  const settings = await getBusinessSettings(database.db);
  const decisionMs = settings.min_people_decision_hours * HOUR_MS;
  const due = await listUncheckedWithMinimum(
    database.db,
    now.toISOString(),
    new Date(now.getTime() + decisionMs).toISOString(),
  );
  let done = 0;
  for (const s of due) {
    if (Date.parse(s.created_at) > Date.parse(s.date) - decisionMs) continue;
    if (await checkSession(database, s.id, now)) done++;
  }
  for (const { schedule_id } of await listUnansweredChecks(database.db, now.toISOString()))
    if (await applyDefault(database, schedule_id, now)) done++;
  return done;
}

/** Claims and decides one session's check; false when another run has it or it no longer applies. */
async function checkSession(database: Database, id: number, now: Date): Promise<boolean> {
  return withScheduleLock(database, id, async (trx) => {
    const row = await getSchedule(trx, id);
    if (!row || row.cancelled_at || Date.parse(row.date) <= now.getTime()) return false;
    if (await getMinPeopleCheck(trx, id)) return false;
    const min = await minimumOf(trx, id);
    if (min <= 0) return false;
    const settings = await getBusinessSettings(trx);
    const people = await activePeople(trx, id);
    const base = { schedule_id: id, people, min_people: min, checked_at: now.toISOString() };
    if (people >= min) {
      await insertMinPeopleCheck(trx, { ...base, status: 'enough' });
      return true;
    }
    if (settings.min_people_action === 'cancel') {
      await insertMinPeopleCheck(trx, { ...base, status: 'cancelled', decided_at: now.toISOString() });
      await publish(trx, await cancelSessionLocked(trx, SYSTEM, id, MIN_PEOPLE_REASON, true));
      return true;
    }
    const decideBy = new Date(
      Math.min(now.getTime() + settings.min_people_grace_hours * HOUR_MS, Date.parse(row.date)),
    );
    const check = { ...base, status: 'asked' as const, default_action: settings.min_people_default };
    await insertMinPeopleCheck(trx, { ...check, decide_by: decideBy.toISOString() });
    await publish(trx, await cards(trx, id, settings, people, min, decideBy));
    return true;
  });
}

async function cards(
  trx: Executor,
  id: number,
  settings: BusinessSettings,
  people: number,
  min: number,
  decideBy: Date,
): Promise<Published[]> {
  const schedule = scheduleSnapshot(await loadSchedule(trx, id));
  return (await listDeciders(trx)).map((d) => ({
    type: 'message',
    chat_id: d.chat_id,
    notification: {
      kind: 'staff.min_people',
      payload: {
        schedule,
        people,
        min_people: min,
        default_action: settings.min_people_default,
        decide_by: decideBy.toISOString(),
      },
    },
    dedupe_key: minPeopleCardKey(id, d.user_id),
  }));
}

/** Nobody answered by `decide_by`: the default, unless the minimum was reached meanwhile or the session started. */
async function applyDefault(database: Database, id: number, now: Date): Promise<boolean> {
  return withScheduleLock(database, id, async (trx) => {
    const check = await getMinPeopleCheck(trx, id);
    if (!check || check.status !== 'asked') return false;
    const row = await getSchedule(trx, id);
    const decided = { decided_at: now.toISOString(), decided_by_user_id: null, decided_by_name: null };
    if (!row || row.cancelled_at) {
      await updateMinPeopleCheck(trx, id, { ...decided, status: 'cancelled' });
      return true;
    }
    const cancel =
      check.default_action === 'cancel' &&
      Date.parse(row.date) > now.getTime() &&
      (await activePeople(trx, id)) < check.min_people;
    await updateMinPeopleCheck(trx, id, { ...decided, status: cancel ? 'cancelled' : 'kept' });
    if (cancel) await publish(trx, await cancelSessionLocked(trx, SYSTEM, id, MIN_PEOPLE_REASON, true));
    return true;
  });
}

export interface MinPeopleDecision {
  /** false: someone (or the default) decided before this press; `check` says what and who. */
  decided: boolean;
  check: MinPeopleCheck;
}

/**
 * A staff member's press on the card: cancel or run. The first press decides under the session's lock;
 * any later one is told what was decided and by whom. Hosts may not decide.
 */
export async function decideMinPeople(
  database: Database,
  actor: Actor,
  id: number,
  action: 'cancel' | 'run',
): Promise<MinPeopleDecision> {
  assertCan(actor, 'schedule.manage');
  const user = await getUserById(database.db, actor.user_id);
  return withScheduleLock(database, id, async (trx) => {
    const check = await getMinPeopleCheck(trx, id);
    if (!check) throw new NotFound(MIN_PEOPLE_MSG.notAsked);
    if (check.status !== 'asked') return { decided: false, check };
    const row = await getSchedule(trx, id);
    if (!row || row.cancelled_at) {
      // Cancelled from the admin meanwhile: that was the decision.
      await updateMinPeopleCheck(trx, id, { status: 'cancelled', decided_at: nowIso() });
      return { decided: false, check: (await getMinPeopleCheck(trx, id))! };
    }
    if (action === 'cancel' && isPast(row.date)) throw new Conflict('minPeopleStarted');
    await updateMinPeopleCheck(trx, id, {
      status: action === 'cancel' ? 'cancelled' : 'kept',
      decided_by_user_id: actor.user_id,
      decided_by_name: user ? user.full_name || user.email : null,
      decided_at: nowIso(),
    });
    const events: Published[] =
      action === 'cancel'
        ? await cancelSessionLocked(trx, actor, id, MIN_PEOPLE_REASON, true)
        : [
            {
              type: 'entity.updated',
              actor,
              entity: 'schedule',
              entity_id: id,
              before: { min_people_check: 'asked' },
              after: { min_people_check: 'kept' },
            },
          ];
    await publish(trx, events);
    return { decided: true, check: (await getMinPeopleCheck(trx, id))! };
  });
}
