import type { Database } from './database';
import { withWriteTransaction } from './lock';
import { insertAddress } from './repositories/addresses';
import { insertSchedule } from './repositories/schedules';
import { insertWorkshop, listWorkshops } from './repositories/workshops';

/** A few workshops, addresses and upcoming sessions, so a newcomer sees something real. Only on an empty catalogue. */
export async function seedDemo(database: Database, now = new Date()): Promise<{ seeded: boolean; sessions: number }> {
  const scheduleIds = await seedCatalogue(database, now);
  return scheduleIds ? { seeded: true, sessions: scheduleIds.length } : { seeded: false, sessions: 0 };
}

/** The demo catalogue: the new sessions' ids, or null when the catalogue is not empty (nothing added). */
export async function seedCatalogue(database: Database, now = new Date()): Promise<number[] | null> {
  if ((await listWorkshops(database.db, 0, 1)).count > 0) return null;
  return withWriteTransaction(database, async (trx) => {
    const workshops = [
      await insertWorkshop(trx, {
        title: 'Домашняя паста',
        description: 'Тальятелле и равиоли с нуля: тесто, начинки, два соуса.',
        price: 3500,
      }),
      await insertWorkshop(trx, {
        title: 'Грузинская кухня',
        description: 'Хинкали и хачапури по-аджарски. Дегустация с вином.',
        price: 4200,
      }),
      await insertWorkshop(trx, {
        title: 'Французские десерты',
        description: 'Эклеры, заварной крем и глазурь.',
        price: 3900,
      }),
    ];
    const addresses = [
      await insertAddress(trx, {
        title: 'Белград, Кнеза Милоша 12',
        map_link: 'https://maps.google.com/?q=Kneza+Milosa+12+Beograd',
        description: 'Вход со двора, 2 этаж',
      }),
      await insertAddress(trx, {
        title: 'Нови-Сад, Змай Йовина 5',
        map_link: 'https://maps.google.com/?q=Zmaj+Jovina+5+Novi+Sad',
        description: null,
      }),
    ];
    let sessions = 0;
    const scheduleIds: number[] = [];
    for (let day = 2; day <= 20; day += 3) {
      const date = new Date(now);
      date.setUTCDate(date.getUTCDate() + day);
      date.setUTCHours(day % 2 ? 11 : 16, 0, 0, 0);
      const schedule = await insertSchedule(trx, {
        date: date.toISOString(),
        capacity: day % 3 ? 8 : 6,
        workshop_id: workshops[sessions % workshops.length].id,
        address_id: addresses[sessions % addresses.length].id,
      });
      scheduleIds.push(schedule.id);
      sessions++;
    }
    return scheduleIds;
  });
}
