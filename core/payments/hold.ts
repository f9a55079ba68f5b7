import type { Database } from '../../db/database';
import { listExpiredHolds, listQueuedOfStartedSessions, setPayBy } from '../../db/repositories/payments';
import { cancelLocked } from '../booking/engine';
import { onRecord } from '../booking/command';
import { SYSTEM } from '../kernel/actor';
import { recordMoney } from '../ledger/ledger';
import { HOLD_EXPIRED_REASON, QUEUE_PASSED_REASON } from './telegram';

/**
 * The seat hold: an ACTIVE booking that has not paid what prepayment asks by its pay_by is cancelled
 * by the system with «Не оплачено вовремя», through the engine like any cancel (the queue is served,
 * the customer is told with «Записаться снова», staff are alerted). Each booking is decided again
 * under its session's lock, so a payment that lands meanwhile keeps the seats. Returns how many.
 */
export async function cancelExpiredHolds(database: Database, now = new Date()): Promise<number> {
  let cancelled = 0;
  for (const ref of await listExpiredHolds(database.db, now.toISOString())) {
    const done = await onRecord(database, SYSTEM, ref.id, async (c) => {
      const r = c.record;
      if (r.state !== 'ACTIVE' || r.pay_by === null || new Date(r.pay_by) > now) return { value: false, events: [] };
      const m = await recordMoney(c.trx, r, c.settings);
      if (m.amount_paid >= m.required_now) {
        await setPayBy(c.trx, r.id, null);
        return { value: false, events: [] };
      }
      const { events } = await cancelLocked(c, HOLD_EXPIRED_REASON);
      return { value: true, events };
    });
    if (done) cancelled++;
  }
  return cancelled;
}

/**
 * A session has started: its bookings still in the queue will never get a seat, so the system cancels
 * them through the engine and whatever they paid follows the rules (back to credit, or owed back).
 * Decided again under the session's lock. Returns how many.
 */
export async function cancelPassedQueue(database: Database, now = new Date()): Promise<number> {
  let cancelled = 0;
  for (const ref of await listQueuedOfStartedSessions(database.db, now.toISOString())) {
    const done = await onRecord(database, SYSTEM, ref.id, async (c) => {
      if (c.record.state !== 'QUEUED' || new Date(c.schedule.date) > now) return { value: false, events: [] };
      const { events } = await cancelLocked(c, QUEUE_PASSED_REASON);
      return { value: true, events };
    });
    if (done) cancelled++;
  }
  return cancelled;
}
