import type { BusinessSettings, Permission, RecordAction, RecordAllowed, Refusal } from '../../contract';
import { isPast } from '../../contract/format';
import type { RecordRow } from '../../db/repositories/records';
import type { Actor } from '../kernel/actor';
import { sayRefusal, type RefusalCode, type RefusalRef } from '../../contract/texts/refusal';
import { Conflict, Forbidden } from '../kernel/errors';
import { MSG } from '../kernel/messages';
import { changeDeadline } from './change-deadline';

/*
 * What a caller may do with a booking, decided once: the commands refuse by it and the views carry
 * it (`allowed`), so the mini-app and the bot show only the buttons that will work and derive nothing.
 * Every action of a started session is closed; a customer's cancel, restore and party change also
 * close at the change deadline and once staff marked attendance (staff may clear the mark first).
 */

export const ALLOWED_MSG = {
  attendedCustomer: 'attended',
  attendedStaff: 'attendedStaff',
  notQueued: 'notQueued',
  notActive: 'notActive',
  started: 'started',
  notYet: 'notYet',
  notAttended: 'notAttended',
  giftCancelled: 'giftCancelled',
  telegramOnly: 'telegramOnly',
} as const satisfies Record<string, RefusalCode>;

export interface AllowedInput {
  actor: Actor;
  record: Pick<RecordRow, 'state' | 'attendance'>;
  schedule: { date: string; cancelled_at?: string | null };
  settings: Pick<BusinessSettings, 'change_deadline_hours' | 'contact'>;
  now?: Date;
}

/** The code of each refusal, so an adapter says it in its reader's language (`detail` is the Russian text). */
const refusals = new WeakMap<Permission, RefusalRef>();

const yes: Permission = { ok: true, reason: null, detail: null };
function no(reason: Refusal, ref: RefusalCode | RefusalRef): Permission {
  const said = typeof ref === 'string' ? ({ code: ref } as RefusalRef) : ref;
  const p: Permission = { ok: false, reason, detail: sayRefusal('ru', said) };
  refusals.set(p, said);
  return p;
}

/** The first refusal that applies, in order, else allowed. */
const first = (...checks: (Permission | false)[]): Permission => checks.find((c) => c !== false) || yes;

export function allowedActions({ actor, record, schedule, settings, now = new Date() }: AllowedInput): RecordAllowed {
  const customer = actor.kind === 'customer';
  const past = isPast(schedule.date, now);
  const deadline = changeDeadline(schedule.date, settings.change_deadline_hours);
  const closed = customer && deadline !== null && now.toISOString() >= deadline;
  const started = past && no('past', MSG.past);
  const attended =
    record.attendance !== null && no('attended', customer ? ALLOWED_MSG.attendedCustomer : ALLOWED_MSG.attendedStaff);
  const late =
    closed &&
    no('deadline', { code: 'deadline', args: { hours: settings.change_deadline_hours, contact: settings.contact } });
  const cancelled = record.state === 'CANCELLED';
  const telegramOnly = !customer && no('telegram_only', ALLOWED_MSG.telegramOnly);
  // A session staff cancelled takes no booking back.
  const sessionCancelled = !!schedule.cancelled_at && no('session_cancelled', MSG.sessionCancelled);

  return {
    cancel: first(started, attended, late, cancelled && no('cancelled', MSG.alreadyCancelled)),
    restore: first(started, sessionCancelled, attended, late, !cancelled && no('not_cancelled', MSG.notCancelled)),
    change_people: first(started, attended, late, cancelled && no('cancelled', MSG.cancelled)),
    leave_queue: first(started, late, record.state !== 'QUEUED' && no('not_queued', ALLOWED_MSG.notQueued)),
    gift: first(telegramOnly, started, attended, cancelled && no('cancelled', ALLOWED_MSG.giftCancelled)),
    confirm: first(
      telegramOnly,
      past && no('past', ALLOWED_MSG.started),
      record.state !== 'ACTIVE' && no('not_active', ALLOWED_MSG.notActive),
    ),
    rate: first(
      telegramOnly,
      !past && no('not_started', ALLOWED_MSG.notYet),
      record.state !== 'ACTIVE' && no('not_active', ALLOWED_MSG.notAttended),
    ),
  };
}

/** The code and values of a refusal this module decided. */
export const permissionRefusal = (p: Permission): RefusalRef | undefined => refusals.get(p);

/** Refuses the action the way the adapters expect: Forbidden for the wrong kind of caller, else Conflict. */
export function assertAllowed(allowed: RecordAllowed, action: RecordAction): void {
  const p = allowed[action];
  if (p.ok) return;
  const ref = refusals.get(p)!;
  throw p.reason === 'telegram_only' ? new Forbidden(ref) : new Conflict(ref);
}
