import type { ScheduleRemoval, StaffPermission } from '../../contract';
import { moneyOf } from '../../contract/money';
import { sayRefusal, type RefusalRef } from '../../contract/texts/refusal';
import type { Executor } from '../../db/database';
import { listPaymentsOfRecords, type PaymentRow } from '../../db/repositories/payments';
import { listRecordsOfSchedules } from '../../db/repositories/records';
import { getSchedule } from '../../db/repositories/schedules';
import { assertCan, type Actor } from '../kernel/actor';
import { NotFound } from '../kernel/errors';
import { MSG } from '../kernel/messages';
import { getBusinessSettings } from '../kernel/settings';
import { cancelledMoney } from '../ledger/policy';
import { cancelRefusal } from '../schedules/cancel-session';
import { deleteRefusal } from '../schedules/schedules';

/*
 * What removing a session would do, read before staff choose: the delete's and the cancel's own rules
 * (deleteRefusal, cancelRefusal), and the money of its open bookings split the way the cancel's money step
 * (onCancelled) gives it back, so the admin's dialog says what the command will do and derives nothing.
 */

const permission = (refused: RefusalRef | RefusalRef['code'] | null): StaffPermission =>
  refused === null
    ? { ok: true, detail: null }
    : { ok: false, detail: sayRefusal('ru', typeof refused === 'string' ? { code: refused } : refused) };

export async function scheduleRemoval(db: Executor, actor: Actor, id: number): Promise<ScheduleRemoval> {
  assertCan(actor, 'schedule.manage');
  const schedule = await getSchedule(db, id);
  if (!schedule) throw new NotFound(MSG.scheduleNotFound);
  const bookings = await listRecordsOfSchedules(db, [id]);
  const [payments, settings] = await Promise.all([
    listPaymentsOfRecords(
      db,
      bookings.map((r) => r.id),
    ),
    getBusinessSettings(db),
  ]);
  const ledgers = new Map<number, PaymentRow[]>();
  for (const p of payments) ledgers.set(p.record_id!, [...(ledgers.get(p.record_id!) ?? []), p]);
  const open = bookings.filter((r) => r.state !== 'CANCELLED');
  const money = { paid: 0, to_certificates: 0, to_credit: 0, owed: 0 };
  let refundsOwed = 0;
  for (const r of bookings) {
    const m = moneyOf(r, ledgers.get(r.id) ?? [], settings);
    if (r.state === 'CANCELLED') {
      refundsOwed += Math.max(0, -m.balance);
      continue;
    }
    const goes = cancelledMoney(r, m, settings);
    for (const key of Object.keys(money) as (keyof typeof money)[]) money[key] += goes[key];
  }
  return {
    delete: permission(deleteRefusal(schedule, bookings, payments.length)),
    cancel: permission(cancelRefusal(schedule)),
    bookings: open.length,
    queued: open.filter((r) => r.state === 'QUEUED').length,
    people: open.filter((r) => r.state === 'ACTIVE').reduce((n, r) => n + r.people_count, 0),
    without_telegram: open.filter((r) => r.telegram_id === null).length,
    money,
    refunds_owed: refundsOwed,
  };
}
