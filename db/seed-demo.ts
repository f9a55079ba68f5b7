import type { Database } from './database';
import { withWriteTransaction } from './lock';
import { insertAddress } from './repositories/addresses';
import { insertSchedule } from './repositories/schedules';
import { insertWorkshop, listWorkshops } from './repositories/workshops';

/** A few workshops, addresses and upcoming sessions, so a newcomer sees something real. Only on an empty catalogue. */
export async function seedDemo(database: Database, now = new Date()): Promise<{ seeded: boolean; sessions: number }> {
  if ((await listWorkshops(database.db, 0, 1)).count > 0) return { seeded: false, sessions: 0 };
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
    for (let day = 2; day <= 20; day += 3) {
      const date = new Date(now);
      date.setUTCDate(date.getUTCDate() + day);
      date.setUTCHours(day % 2 ? 11 : 16, 0, 0, 0);
      await insertSchedule(trx, {
        date: date.toISOString(),
        capacity: day % 3 ? 8 : 6,
        workshop_id: workshops[sessions % workshops.length].id,
        address_id: addresses[sessions % addresses.length].id,
      });
      sessions++;
    }
    return { seeded: true, sessions };
  });
}
