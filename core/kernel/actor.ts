import { hostWindow, type HostWindow } from '../../contract/host-window';
import { can, type Capability, type Role } from '../../contract/roles';
import { Forbidden } from './errors';

/*
 * Who asks for a change. Adapters build it from what they verified (a staff token, Telegram init data
 * or a bot update's sender); commands decide from it what is allowed, and the audit log records it.
 */

/** A staff member's role; what each may do is the table of contract/roles.ts. */
export type StaffRole = Role;

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
): StaffActor {
  const role = staffRole(user);
  return { kind: 'staff', user_id: user.id, role, ...(role === 'host' && { window: hostWindow(timeZone, now) }) };
}

/** Staff and the system act on any booking; a customer only on their own. */
export const actsForAnyone = (actor: Actor) => actor.kind !== 'customer';

/** The spec's refusal of a staff member whose role may not do this. */
export const PRIVILEGES_REFUSAL = 'privileges' as const;
/** What a host reads instead: the door's staff work in Russian, and every refusal of a host says this. */
export const NO_ACCESS = 'noAccess' as const;

/** Whether the actor is staff whose role may do this (the role table; a host's days are checked apart). */
export const actorCan = (actor: Actor, capability: Capability): boolean =>
  actor.kind === 'staff' && can(actor.role, capability);

/** Refuses anyone but staff whose role has the capability; the HTTP layer checked this already, the domain checks it again. */
export function assertCan(actor: Actor, capability: Capability): asserts actor is StaffActor {
  if (actor.kind === 'staff' && can(actor.role, capability)) return;
  throw new Forbidden(actor.kind === 'staff' && actor.role === 'host' ? NO_ACCESS : PRIVILEGES_REFUSAL);
}

export type StaffActor = Extract<Actor, { kind: 'staff' }>;
