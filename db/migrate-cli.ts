import { loadConfig } from '../server/config';
import { createDb } from './database';
import { migrateToLatest } from './migrate';

// `npm run migrate`: bring the configured database to the latest schema (npm start does it too).
const database = createDb(loadConfig().databaseUrl);
await migrateToLatest(database.db);
await database.close();
console.log('Database is up to date.');
