import { loadConfigOrExit, openDatabase } from '../server/startup';

// `npm run migrate`: bring the configured database to the latest schema (npm start does it too).
const database = await openDatabase(loadConfigOrExit());
await database.close();
console.log('Database is up to date.');
