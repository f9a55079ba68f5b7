/*
 * Who on the staff may do what: the one table the server's endpoints, the commands in core, the bot and the
 * admin's pages all read. A role is what a staff account is; a capability is what a request or a button needs.
 * Dates are a rule of their own: a host works today's and tomorrow's sessions only (contract/host-window.ts).
 */

/** owner (is_superuser), manager, host (the staff member at the door). */
export const ROLES = ['owner', 'manager', 'host'] as const;
export type Role = (typeof ROLES)[number];

const EVERYONE = ['owner', 'manager', 'host'] as const;
const STUDIO = ['owner', 'manager'] as const;
const OWNER = ['owner'] as const;

/** Each capability and the roles that have it. */
const TABLE = {
  /** One's own account: profile, password, Telegram link, alerts. */
  account: EVERYONE,
  /** The list of sessions and a session's bookings (a host: on their days). */
  'sessions.read': EVERYONE,
  /** Marking who came. */
  checkin: EVERYONE,
  /** Taking a booking's payment at the door (cash, card, a certificate) and reading its ledger. */
  'desk.pay': EVERYONE,
  /** Any booking on any date: making, changing, cancelling it for a customer, its history, exports. */
  'bookings.manage': STUDIO,
  /** Adding, changing, cancelling sessions and series; deciding a session short of its minimum. */
  'schedule.manage': STUDIO,
  /** Workshops and addresses. */
  'catalog.manage': STUDIO,
  /** The customer list, a customer's card and the studio's note about them. */
  'customers.manage': STUDIO,
  /** Reading the business settings (contacts, bank account, Telegram Business). */
  'business.read': STUDIO,
  'stats.read': STUDIO,
  /** The cash desk: every payment, and its export. */
  'cashdesk.read': STUDIO,
  'money.refund': STUDIO,
  /** Setting a booking's price by hand. */
  'price.override': STUDIO,
  /** Issuing certificates, their list, confirming a purchase's payment. */
  'certificates.manage': STUDIO,
  /** Fiscal receipts: each payment's receipt, the fiscal state, the daily report, a receipt to print. */
  'fiscal.read': STUDIO,
  /** Typing a receipt's number from the studio's own register (manual mode), a refund's buyer ID. */
  'fiscal.receipts': STUDIO,
  'users.manage': OWNER,
  'business.settings': OWNER,
  /** A customer's personal data: export and erasure. */
  'customers.data': OWNER,
  'credit.adjust': OWNER,
  'certificates.void': OWNER,
  'promo.manage': OWNER,
  'audit.read': OWNER,
  /** The fiscal settings (mode, PFR, training, tax labels) and the PFR's PIN. */
  'fiscal.settings': OWNER,
} as const satisfies Record<string, readonly Role[]>;

export type Capability = keyof typeof TABLE;

export const CAPABILITIES = Object.keys(TABLE) as Capability[];

export const can = (role: Role, capability: Capability): boolean =>
  (TABLE[capability] as readonly Role[]).includes(role);

/** What a role may do, in the table's order: what GET /users/me tells the admin. */
export const capabilitiesOf = (role: Role): Capability[] => CAPABILITIES.filter((c) => can(role, c));
