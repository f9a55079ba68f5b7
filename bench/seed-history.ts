import type { Database } from '../db/database';
import { withWriteTransaction } from '../db/lock';

/**
 * Three years of use: `sessions` past sessions (one every ~17 hours back from yesterday), each with
 * `perSession` bookings (mostly ACTIVE and marked, some cancelled or queued), written in bulk.
 * Customers come back: 2,000 Telegram users share the bookings.
 */
export async function seedHistory(
  database: Database,
  opts: { workshopId: number; addressId: number; sessions?: number; perSession?: number },
): Promise<void> {
  const sessions = opts.sessions ?? 1500;
  const perSession = opts.perSession ?? 8;
  const sources = ['instagram', 'telegram', 'friends', 'certificate', 'events', null];
  const start = Date.now() - 86_400_000;
  await withWriteTransaction(database, async (trx) => {
    for (let from = 0; from < sessions; from += 100) {
      const batch = Array.from({ length: Math.min(100, sessions - from) }, (_, k) => {
        const i = from + k;
        const date = new Date(start - i * 17 * 3_600_000);
        date.setUTCMinutes(0, 0, 0);
        return {
          date: date.toISOString(),
          capacity: 10,
          workshop_id: opts.workshopId,
          address_id: opts.addressId,
          is_notified: 1,
          created_at: date.toISOString(),
        };
      });
      const ids = await trx.insertInto('schedules').values(batch).returning(['id', 'date']).execute();
      const records = ids.flatMap((s, k) =>
        Array.from({ length: perSession }, (_, j) => {
          const n = (from + k) * perSession + j;
          const state = j === perSession - 1 ? 'CANCELLED' : j === perSession - 2 && n % 3 === 0 ? 'QUEUED' : 'ACTIVE';
          return {
            schedule_id: s.id,
            state: state as 'ACTIVE' | 'QUEUED' | 'CANCELLED',
            name: `Гость ${n % 2000}`,
            last_name: 'Историческая',
            people_count: 1 + (n % 2),
            telegram_login: `guest${n % 2000}`,
            telegram_id: 7_000_000 + (n % 2000),
            comment: n % 5 === 0 ? 'Без лука, пожалуйста' : null,
            has_allergy: n % 7 === 0 ? 1 : 0,
            allergy_type: n % 7 === 0 ? 'орехи' : null,
            source: sources[n % sources.length],
            is_first_time: n % 4 === 0 ? 1 : 0,
            cancel_reason: state === 'CANCELLED' ? 'Изменились планы' : null,
            attendance: state === 'ACTIVE' ? (n % 10 === 0 ? ('NO_SHOW' as const) : ('ATTENDED' as const)) : null,
            queued_at: state === 'QUEUED' ? s.date : null,
            created_at: s.date,
            updated_at: s.date,
          };
        }),
      );
      await trx.insertInto('records').values(records).execute();
    }
  });
}
