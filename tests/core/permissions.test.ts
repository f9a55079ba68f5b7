import { describe, expect, it } from 'vitest';
import { CAPABILITIES, ROLES, can, capabilitiesOf, type Capability, type Role } from '../../contract/roles';
import { SYSTEM, actorCan, assertCan, customerActor, staffActor, staffRole, type Actor } from '../../core/kernel/actor';
import { Forbidden } from '../../core/kernel/errors';

const TZ = 'Europe/Belgrade';
const actor = (role: Role): Actor =>
  staffActor({ id: 7, is_superuser: role === 'owner', role }, TZ, '2026-11-28T10:00:00Z');

/** The refusal assertCan throws, or null when it lets the actor through. */
function refusal(a: Actor, capability: Capability): string | null {
  try {
    assertCan(a, capability);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(Forbidden);
    return (err as Error).message;
  }
}

describe('the role table', () => {
  it('gives the owner everything, a manager all but the owner’s matters, a host the door', () => {
    expect(capabilitiesOf('owner')).toEqual(CAPABILITIES);
    expect(CAPABILITIES.filter((c) => !can('manager', c))).toEqual([
      'users.manage',
      'business.settings',
      'customers.data',
      'credit.adjust',
      'certificates.void',
      'promo.manage',
      'audit.read',
      'fiscal.settings',
    ]);
    expect(capabilitiesOf('host')).toEqual(['account', 'sessions.read', 'checkin', 'desk.pay']);
  });

  it('lets no role do what a role above it may not', () => {
    for (const c of CAPABILITIES) {
      if (can('host', c)) expect(can('manager', c), c).toBe(true);
      if (can('manager', c)) expect(can('owner', c), c).toBe(true);
    }
  });

  it('reads a stored account as its role: is_superuser is the owner, an unknown role a manager', () => {
    expect(staffRole({ is_superuser: 1, role: 'host' })).toBe('owner');
    expect(staffRole({ is_superuser: false, role: 'host' })).toBe('host');
    expect(staffRole({ is_superuser: 0, role: 'manager' })).toBe('manager');
    expect(staffRole({ is_superuser: false })).toBe('manager');
  });
});

describe('assertCan', () => {
  it('lets through exactly the roles the table lets through', () => {
    for (const role of ROLES)
      for (const c of CAPABILITIES) {
        expect(refusal(actor(role), c) === null, `${role} ${c}`).toBe(can(role, c));
        expect(actorCan(actor(role), c), `${role} ${c}`).toBe(can(role, c));
      }
  });

  it('refuses a manager with the privileges text and a host with «Нет доступа»', () => {
    expect(refusal(actor('manager'), 'users.manage')).toBe("The user doesn't have enough privileges");
    expect(refusal(actor('host'), 'money.refund')).toBe('Нет доступа');
  });

  it('refuses a customer and the system every staff capability', () => {
    for (const c of CAPABILITIES) {
      expect(refusal(customerActor(42), c)).toBe("The user doesn't have enough privileges");
      expect(refusal(SYSTEM, c)).toBe("The user doesn't have enough privileges");
      expect(actorCan(customerActor(42), c)).toBe(false);
    }
  });

  it('gives a host, and only a host, the window of their days on the studio’s clock', () => {
    expect(actor('host')).toMatchObject({
      kind: 'staff',
      role: 'host',
      window: { from: '2026-11-27T23:00:00.000Z', to: '2026-11-29T23:00:00.000Z' },
    });
    expect(actor('manager')).not.toHaveProperty('window');
  });
});
