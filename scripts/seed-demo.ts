import { loadConfigOrExit, openDatabase } from '../server/startup';
import { ensureFirstSuperuser } from '../core/staff/users';
import { seedStudioWeek } from '../core/demo/studio-week';

// `npm run db:seed-demo`: a demo studio week on a fresh database (the configured one, SQLite by default): the owner
// from FIRST_SUPERUSER, workshops, sessions, bookings, payments, a queue, a promo code and a gift certificate.
const config = loadConfigOrExit();
const database = await openDatabase(config);
const created = await ensureFirstSuperuser(database, {
  email: config.firstSuperuser,
  password: config.firstSuperuserPassword,
});
if (created?.generated) console.log(`Owner ${created.email} created with the password ${created.password}`);
const result = await seedStudioWeek(database, new Date(), config.businessTimezone);
console.log(
  result.seeded
    ? `Demo data added: 3 workshops, 2 addresses, ${result.sessions} upcoming sessions, ${result.bookings ?? 0} bookings.`
    : 'The database already has workshops: demo data not added.',
);
await database.close();
