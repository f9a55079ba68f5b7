import { startOfStudioDay } from './format';

/**
 * The sessions a host works, as ISO instants on the studio's clock: today's and tomorrow's ([from, to),
 * those already started today included), and the week before for the history list (from `historyFrom`).
 * The server enforces it; the admin shows a host only what falls inside.
 */
export interface HostWindow {
  from: string;
  to: string;
  historyFrom: string;
}

export const hostWindow = (timeZone: string, now: number | string = Date.now()): HostWindow => ({
  from: startOfStudioDay(now, timeZone),
  to: startOfStudioDay(now, timeZone, 2),
  historyFrom: startOfStudioDay(now, timeZone, -7),
});

/** Whether a session's start falls in a host's days. */
export const inHostDays = (w: HostWindow, date: string) => {
  const at = new Date(date).toISOString();
  return at >= w.from && at < w.to;
};

/** How a host takes money at the door: cash or card (bank transfers are reconciled by a manager). */
export const HOST_DESK_METHODS = ['cash', 'card'] as const;
