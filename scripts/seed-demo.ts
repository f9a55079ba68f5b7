import { loadConfigOrExit, openDatabase } from '../server/startup';
import { seedDemo } from '../db/seed-demo';

// `npm run db:seed-demo`: demo workshops, addresses and upcoming sessions on a fresh database.
const database = await openDatabase(loadConfigOrExit());
const result = await seedDemo(database);
console.log(
  result.seeded
    ? `Demo data added: 3 workshops, 2 addresses, ${result.sessions} upcoming sessions.`
    : 'The database already has workshops: demo data not added.',
);
await database.close();
