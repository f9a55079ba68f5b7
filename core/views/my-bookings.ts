import type { RecordAllowed, RecordState } from '../../contract';
import { titleIn } from '../../contract/language';
import type { Executor } from '../../db/database';
import { listPaymentsOfRecords, type PaymentRow } from '../../db/repositories/payments';
import { listUpcomingBookingsOfTelegramUser } from '../../db/repositories/records';
import { allowedActions } from '../booking/allowed';
import { customerActor } from '../kernel/actor';
import { getBusinessSettings } from '../kernel/settings';
import { customerLanguage } from '../language/customer-language';
import { snapshotOf } from '../ledger/ledger';
import type { MoneySnapshot } from '../notify/notifications';
import { sayAllowed } from './record-view';

/*
 * A customer's upcoming bookings as the chat lists them (/my, /cancel): each with its money and what
 * the customer may do with it, decided by the same rule the commands refuse by, so the bot offers only
 * what will work. A constant number of queries however many bookings there are.
 */

/** One booking of the list (plain JSON: a conversation stores it). */
export interface MyBooking {
  id: number;
  state: RecordState;
  people_count: number;
  date: string;
  /** In the customer's language. */
  workshop_title: string;
  /** 1-based place in the queue; null unless QUEUED. */
  queue_position: number | null;
  money: MoneySnapshot;
  /** Its reasons in the customer's language. */
  allowed: RecordAllowed;
}

/** The Telegram user's bookings in sessions that have not started, soonest first. */
export async function myBookings(db: Executor, telegramId: number, now = new Date()): Promise<MyBooking[]> {
  const rows = await listUpcomingBookingsOfTelegramUser(db, telegramId, now.toISOString());
  if (rows.length === 0) return [];
  const [settings, language, payments] = await Promise.all([
    getBusinessSettings(db),
    customerLanguage(db, telegramId),
    listPaymentsOfRecords(
      db,
      rows.map((r) => r.id),
    ),
  ]);
  const ledgers = new Map<number, PaymentRow[]>();
  for (const p of payments) ledgers.set(p.record_id!, [...(ledgers.get(p.record_id!) ?? []), p]);
  const actor = customerActor(telegramId);
  return rows.map((r) => ({
    id: r.id,
    state: r.state,
    people_count: r.people_count,
    date: r.schedule_date,
    workshop_title: titleIn(
      { title: r.workshop_title, title_en: r.workshop_title_en, title_sr: r.workshop_title_sr },
      language,
    ),
    queue_position: r.queue_position === null ? null : Number(r.queue_position),
    money: snapshotOf(r, ledgers.get(r.id) ?? [], settings),
    allowed: sayAllowed(
      allowedActions({
        actor,
        record: r,
        schedule: { date: r.schedule_date, cancelled_at: r.schedule_cancelled_at },
        settings,
        now,
      }),
      language,
    ),
  }));
}
