import type { BusinessSettings } from '../../contract/business-settings';
import type { Executor } from '../../db/database';
import type { Actor } from '../kernel/actor';
import { getBusinessSettings } from '../kernel/settings';
import { Conflict } from '../kernel/errors';

/*
 * The change deadline (business setting change_deadline_hours): within that many hours of the
 * start a customer can no longer cancel, restore or change the people count; staff still can.
 * 0 means until the start (the past-session rule covers it).
 */

/** The last moment a customer may change the booking, or null when only the start limits it. */
export function changeDeadline(scheduleDate: string, hours: number): string | null {
  return hours > 0 ? new Date(Date.parse(scheduleDate) - hours * 3_600_000).toISOString() : null;
}

/** The deadline refusal: it names the rule and how to reach the studio. */
export const deadlineRefusal = (s: Pick<BusinessSettings, 'change_deadline_hours' | 'contact'>) =>
  new Conflict('deadline', { hours: s.change_deadline_hours, contact: s.contact });

/** Throws Conflict when a customer's change comes after the deadline. */
export async function assertCustomerMayChange(trx: Executor, actor: Actor, scheduleDate: string, now = new Date()) {
  if (actor.kind !== 'customer') return;
  const settings = await getBusinessSettings(trx);
  const deadline = changeDeadline(scheduleDate, settings.change_deadline_hours);
  if (deadline && now.toISOString() >= deadline) throw deadlineRefusal(settings);
}
