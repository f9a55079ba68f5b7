import { CertificateIssue } from '../../contract/certificates';
import { PromoCodeCreate } from '../../contract/promo-codes';
import type { Database } from '../../db/database';
import { seedCatalogue } from '../../db/seed-demo';
import { customerActor, staffActor, type Actor } from '../kernel/actor';
import { createRecord } from '../booking/engine';
import { recordDeskPayment } from '../payments/desk';
import { issueCertificate } from '../certificates/sale';
import { createPromoCode } from '../promo/promo-codes';

/**
 * `npm run db:seed-demo`: a believable studio week, so a newcomer sees something real. The demo catalogue
 * (workshops, addresses, upcoming sessions) and, once the studio has an owner, bookings made and paid through the
 * same commands the bot, the mini-app and the admin use (a full session with a queue, a promo code, a gift
 * certificate spent on a booking), so Главная, Касса and Журнал have something to show. Only on an empty
 * catalogue: a second run changes nothing.
 */
export async function seedStudioWeek(
  database: Database,
  now = new Date(),
  timeZone = 'Europe/Belgrade',
): Promise<{ seeded: boolean; sessions: number; bookings?: number }> {
  const scheduleIds = await seedCatalogue(database, now);
  if (!scheduleIds) return { seeded: false, sessions: 0 };
  const owner = (await database.db.selectFrom('users').select(['id', 'is_superuser']).orderBy('id').execute()).find(
    (u) => Boolean(u.is_superuser),
  );
  if (!owner) return { seeded: true, sessions: scheduleIds.length };
  const bookings = await seedWeek(database, staffActor(owner, timeZone), scheduleIds, timeZone);
  return { seeded: true, sessions: scheduleIds.length, bookings };
}

const CUSTOMERS = [
  { name: 'Ана', last_name: 'Петровић', login: 'ana_p' },
  { name: 'Марко', last_name: 'Јовановић', login: 'marko_j' },
  { name: 'Елена', last_name: 'Смирнова', login: 'elena_s' },
  { name: 'Иван', last_name: 'Кузнецов', login: null },
  { name: 'Милица', last_name: 'Николић', login: 'milica_n' },
  { name: 'Ольга', last_name: 'Орлова', login: 'olga_o' },
  { name: 'Стефан', last_name: 'Илић', login: 'stefan_i' },
];

/** Bookings of the first two sessions, as customers and the owner would make them; returns how many. */
async function seedWeek(database: Database, owner: Actor, scheduleIds: number[], timeZone: string): Promise<number> {
  const promo = await createPromoCode(
    database,
    owner,
    {
      ...PromoCodeCreate.parse({
        code: 'WELCOME10',
        kind: 'percent',
        value: 10,
        valid_from: null,
        valid_to: null,
        max_uses: null,
        first_time_only: true,
      }),
      workshop_ids: [],
    },
    timeZone,
  );
  const certificate = await issueCertificate(
    database,
    owner,
    CertificateIssue.parse({
      amount: 5000,
      method: 'card',
      buyer_name: 'Милица Николић',
      recipient_name: 'Иван Кузнецов',
      greeting: 'С днём рождения!',
      note: '',
    }),
  );
  let count = 0;
  const book = async (
    who: number,
    scheduleId: number,
    people: number,
    extra: { promo_code?: string; certificate_code?: string; is_first_time?: boolean } = {},
  ) => {
    const c = CUSTOMERS[who];
    const telegramId = 700_000_001 + who;
    const { record } = await createRecord(
      database,
      customerActor(telegramId),
      {
        schedule_id: scheduleId,
        name: c.name,
        last_name: c.last_name,
        people_count: people,
        is_first_time: extra.is_first_time ?? false,
        consent: true,
        source: null,
        promo_code: extra.promo_code ?? null,
        certificate_code: extra.certificate_code ?? null,
      },
      { telegram_id: telegramId, telegram_login: c.login },
    );
    count++;
    return record;
  };
  const [first, second] = scheduleIds;
  // The first session: paid in full at the desk, a deposit by card, a promo code, a gift certificate.
  await recordDeskPayment(database, owner, (await book(0, first, 2)).id, { method: 'cash' });
  await recordDeskPayment(database, owner, (await book(1, first, 1)).id, { method: 'card', amount: 1000 });
  await book(2, first, 1, { promo_code: promo.code, is_first_time: true });
  await book(3, first, 1, { certificate_code: certificate.code });
  // The second session: full, with a customer waiting in the queue.
  await recordDeskPayment(database, owner, (await book(4, second, 3)).id, { method: 'bank_transfer' });
  await book(5, second, 3);
  await book(6, second, 2);
  await book(0, second, 2);
  return count;
}
