import type {
  CertificateAllowed,
  CertificateStatus,
  LedgerAllowed,
  SessionRowAllowed,
  StaffPermission,
} from '../../contract';
import { DESK_METHODS } from '../../contract/money';
import { HOST_DESK_METHODS, inHostDays } from '../../contract/host-window';
import { sayRefusal, type RefusalCode } from '../../contract/texts/refusal';
import { actorCan, NO_ACCESS, type Actor } from '../kernel/actor';
import { ATTENDANCE_MSG, checkInOpen } from './attendance';
import { hostWindowOf, isHost } from '../kernel/roles';

/*
 * What a staff member may do with what a staff view shows, decided on the server from the role table and
 * the row: the admin shows the controls these allow and derives nothing. The commands refuse by the same
 * rules (the capability, a host's days, check-in's hour), so a shown control works.
 */

const yes: StaffPermission = { ok: true, detail: null };
const no = (code: RefusalCode): StaffPermission => ({ ok: false, detail: sayRefusal('ru', { code }) });

/** A host works today's and tomorrow's sessions only; everyone else any date. */
const mayWork = (actor: Actor, date: string) => {
  if (!isHost(actor)) return true;
  const w = hostWindowOf(actor);
  return w !== null && inHostDays(w, date);
};

/** A booking in a session's list: check-in (with the reason when refused), taking payment, a refund. */
export function sessionRowAllowed(
  actor: Actor,
  schedule: { date: string; cancelled_at?: string | null },
  record: { state: string; payment?: { amount_paid: number } },
  now = Date.now(),
): SessionRowAllowed {
  const works = mayWork(actor, schedule.date);
  const checkin =
    !actorCan(actor, 'checkin') || !works
      ? no(NO_ACCESS)
      : schedule.cancelled_at
        ? no('sessionCancelled')
        : record.state !== 'ACTIVE'
          ? no(ATTENDANCE_MSG.notActive)
          : !checkInOpen(schedule.date, now)
            ? no(ATTENDANCE_MSG.tooEarly)
            : yes;
  return {
    checkin,
    pay: actorCan(actor, 'desk.pay') && works,
    refund: actorCan(actor, 'money.refund') && (record.payment?.amount_paid ?? 0) > 0,
  };
}

/** A session as staff read it, each booking with what the reader may do with it. */
export const withRowsAllowed = <
  S extends {
    date: string;
    cancelled_at?: string | null;
    records: { state: string; payment?: { amount_paid: number } }[];
  },
>(
  actor: Actor,
  schedule: S,
  now = Date.now(),
): S => ({
  ...schedule,
  records: schedule.records.map((r) => ({ ...r, allowed: sessionRowAllowed(actor, schedule, r, now) })),
});

/** A booking's ledger (opened only on a session the reader may work). */
export const ledgerAllowed = (actor: Actor, money: { amount_paid: number }): LedgerAllowed => ({
  pay: actorCan(actor, 'desk.pay'),
  methods: [...(isHost(actor) ? HOST_DESK_METHODS : DESK_METHODS)],
  refund: actorCan(actor, 'money.refund') && money.amount_paid > 0,
  override_price: actorCan(actor, 'price.override'),
  adjust_credit: actorCan(actor, 'credit.adjust'),
});

/** A certificate: confirming a purchase's payment, voiding it. */
export const certificateAllowed = (actor: Actor, c: { status: CertificateStatus }): CertificateAllowed => ({
  void: actorCan(actor, 'certificates.void') && c.status !== 'voided',
  confirm: actorCan(actor, 'certificates.manage') && c.status === 'pending',
});
