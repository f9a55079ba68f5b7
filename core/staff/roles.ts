import { startOfStudioDay } from '../../contract/format';
import type { Actor } from '../kernel/actor';
import { Forbidden } from '../kernel/errors';

export const ROLE_MSG = { noAccess: 'Нет доступа' } as const;

/** A host works today's and tomorrow's sessions (from today's midnight on the studio's clock, started ones included). */
export const hostWindow = (timeZone: string, now = Date.now()) => ({
  from: startOfStudioDay(now, timeZone),
  to: startOfStudioDay(now, timeZone, 2),
});

export const isHost = (actor: Actor) => actor.kind === 'staff' && actor.role === 'host';

/** Refuses a host a session outside today and tomorrow. */
export function assertHostMaySee(actor: Actor, date: string, timeZone: string, now = Date.now()): void {
  if (!isHost(actor)) return;
  const w = hostWindow(timeZone, now);
  const at = new Date(date).toISOString();
  if (at < w.from || at >= w.to) throw new Forbidden(ROLE_MSG.noAccess);
}
