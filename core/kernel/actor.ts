import { hostWindow, type HostWindow } from '../../contract/host-window';
import { Forbidden } from './errors';

/*
 * Who asks for a change. Adapters build it from what they verified (a staff token, Telegram init data
 * or a bot update's sender); commands decide from it what is allowed, and the audit log records it.
 */

/**
 * A staff member's role: the owner (a superuser) may do everything, a manager everything but users and
 * business settings, a host the day's sessions at the door (participants, check-in, payments).
 */
export type StaffRole = 'owner' | 'manager' | 'host';

export type Actor =
  | { kind: 'customer'; telegram_id: number }
  | { kind: 'staff'; user_id: number; role: StaffRole; window?: HostWindow }
  | { kind: 'system' };

export const SYSTEM: Actor = { kind: 'system' };

export const customerActor = (telegramId: number): Actor => ({ kind: 'customer', telegram_id: telegramId });

/** is_superuser means owner (the API keeps the flag); otherwise the stored role. */
export const staffRole = (user: { is_superuser: boolean | number; role?: string }): StaffRole =>
  user.is_superuser ? 'owner' : user.role === 'host' ? 'host' : 'manager';

/** A staff member acting now; a host carries the window of sessions it may work, on the studio's clock. */
export function staffActor(
  user: { id: number; is_superuser: boolean | number; role?: string },
  timeZone: string,
  now: number | string = Date.now(),
): Actor {
  const role = staffRole(user);
  return { kind: 'staff', user_id: user.id, role, ...(role === 'host' && { window: hostWindow(timeZone, now) }) };
}

/** Staff and the system act on any booking; a customer only on their own. */
export const actsForAnyone = (actor: Actor) => actor.kind !== 'customer';

// The spec's text for a role that may not do this.
const STAFF_ONLY = "The user doesn't have enough privileges";

/** Refuses anyone but staff (and, with `owner`, anyone but the owner); the HTTP layer checked this already, the domain checks it again. */
export function assertStaff(actor: Actor, role?: 'owner'): asserts actor is Extract<Actor, { kind: 'staff' }> {
  if (actor.kind !== 'staff' || (role === 'owner' && actor.role !== 'owner')) throw new Forbidden(STAFF_ONLY);
}
