import path from 'node:path';
import { loadConfig } from '../server/config';
import { backupSqlite } from '../db/backup';

// `npm run backup`: a consistent, timestamped copy of the SQLite database in <DATA_DIR>/backups.
const config = loadConfig();
if (!config.databaseUrl.startsWith('sqlite:')) {
  console.error('npm run backup copies the SQLite database; on PostgreSQL use pg_dump.');
  process.exit(1);
}
const file = path.resolve(config.databaseUrl.slice('sqlite:'.length));
const dest = await backupSqlite(file, path.join(config.dataDir, 'backups'));
console.log(`Backup written: ${dest}`);
