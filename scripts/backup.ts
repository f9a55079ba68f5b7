import fs from 'node:fs';
import path from 'node:path';
import { shown } from '../server/config';
import { exitWith, loadConfigOrExit } from '../server/startup';
import { backupSqlite, pruneBackups } from '../db/backup';

// `npm run backup`: a consistent, timestamped copy of the SQLite database in <DATA_DIR>/backups; copies older
// than BACKUP_KEEP_DAYS are deleted.
const config = loadConfigOrExit();
const database = shown('DATABASE_URL', config.databaseUrl);
if (!config.databaseUrl.startsWith('sqlite:'))
  exitWith([
    `${database}: npm run backup copies an SQLite database; expected sqlite:<file> (on PostgreSQL use pg_dump)`,
  ]);
const file = path.resolve(config.databaseUrl.slice('sqlite:'.length));
if (!fs.existsSync(file)) {
  const why = fs.existsSync(path.dirname(file)) ? `no file ${file}` : `no folder ${path.dirname(file)}`;
  exitWith([`${database}: ${why}; expected the SQLite file the server uses (it is created by the first start)`]);
}
const backups = path.join(config.dataDir, 'backups');
let dest: string;
try {
  dest = await backupSqlite(file, backups);
} catch (err) {
  const { code, message } = err as NodeJS.ErrnoException;
  if (!code || !['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOSPC'].includes(code)) throw err;
  exitWith([
    `${shown('DATA_DIR', config.dataDir)}: cannot write ${path.resolve(backups)} (${code}: ${message}); expected a writable folder with free space`,
  ]);
}
console.log(`Backup written: ${dest}`);
// Older backups go, so data erased from the database (forget, retention) leaves the backups within BACKUP_KEEP_DAYS.
for (const old of pruneBackups(file, backups, config.backupKeepDays)) console.log(`Old backup deleted: ${old}`);
