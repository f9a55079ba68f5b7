import { titleIn } from '../contract/language';
import { customerLanguage } from '../core/language/customer-language';
import { nowIso } from '../db/database';
import { listUpcomingRecordsOfTelegramUser, queuePosition } from '../db/repositories/records';
import { getRecordSchedule } from '../db/repositories/schedules';
import type { BotDeps } from './context';

/** A customer's upcoming booking, as the bot lists it (plain JSON: it is stored by conversations). */
export interface UpcomingBooking {
  id: number;
  state: 'ACTIVE' | 'QUEUED' | 'CANCELLED';
  people_count: number;
  date: string;
  workshop_title: string;
  queue_position: number | null;
}

/** The Telegram user's bookings in sessions that have not started, soonest first. */
export async function loadUpcoming(deps: BotDeps, telegramId: number): Promise<UpcomingBooking[]> {
  const db = deps.database.db;
  const records = await listUpcomingRecordsOfTelegramUser(db, telegramId, nowIso());
  const language = await customerLanguage(db, telegramId);
  const titles = new Map<number, string>();
  const out: UpcomingBooking[] = [];
  for (const r of records) {
    if (!titles.has(r.schedule_id))
      titles.set(
        r.schedule_id,
        titleIn((await getRecordSchedule(db, r.schedule_id))?.workshop ?? { title: '' }, language),
      );
    out.push({
      id: r.id,
      state: r.state,
      people_count: r.people_count,
      date: r.schedule_date,
      workshop_title: titles.get(r.schedule_id)!,
      queue_position: r.state === 'QUEUED' ? await queuePosition(db, r) : null,
    });
  }
  return out;
}
