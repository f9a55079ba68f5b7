import { HOST_DESK_METHODS, inHostDays, type HostWindow } from '../../contract/host-window';
import { NO_ACCESS, type Actor } from './actor';
import { Forbidden } from './errors';

export const ROLE_MSG = {
  noAccess: NO_ACCESS,
  hostMethods: 'hostMethods',
} as const;

/** The window a host works in; null for everyone else (no limit). */
export const hostWindowOf = (actor: Actor): HostWindow | null =>
  actor.kind === 'staff' && actor.role === 'host' ? (actor.window ?? null) : null;

export const isHost = (actor: Actor) => actor.kind === 'staff' && actor.role === 'host';

/**
 * Refuses a host a session outside today and tomorrow: its bookings, check-in and payments alike.
 * A host's actor without a window (built without the studio's clock) is refused everything.
 */
export function assertHostMaySee(actor: Actor, date: string): void {
  if (!isHost(actor)) return;
  const w = hostWindowOf(actor);
  if (!w || !inHostDays(w, date)) throw new Forbidden(ROLE_MSG.noAccess);
}

/**
 * A session list's date range as the actor may see it: unchanged for owner and manager; for a host cut to
 * today and tomorrow (upcoming, those started today included) or to the week before and those days (history).
 */
export function rangeFor(
  actor: Actor,
  list: 'upcoming' | 'past',
  range: { from?: string; to?: string },
): { from?: string; to?: string } {
  if (!isHost(actor)) return range;
  const w = hostWindowOf(actor);
  if (!w) throw new Forbidden(ROLE_MSG.noAccess);
  const from = list === 'upcoming' ? w.from : w.historyFrom;
  return {
    from: range.from && range.from > from ? range.from : from,
    to: range.to && range.to < w.to ? range.to : w.to,
  };
}

/** Refuses a host a desk payment other than cash or card. */
export function assertHostMayTake(actor: Actor, method: string): void {
  if (isHost(actor) && !(HOST_DESK_METHODS as readonly string[]).includes(method))
    throw new Forbidden(ROLE_MSG.hostMethods);
}
