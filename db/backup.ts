import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * A consistent copy of a live SQLite database through SQLite's online backup API: safe while
 * the server writes (WAL), unlike copying the file. Returns the new file's path.
 */
export async function backupSqlite(file: string, destDir: string, now = new Date()): Promise<string> {
  fs.mkdirSync(destDir, { recursive: true });
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const dest = path.join(destDir, `${path.basename(file, path.extname(file))}-${stamp}.db`);
  const source = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    // Everything left in one step: a step-wise copy starts over whenever the server writes between two
    // steps, so under steady writes a database of more than one step's pages would never finish.
    await source.backup(dest, { progress: ({ totalPages }) => totalPages });
  } finally {
    source.close();
  }
  return dest;
}

/**
 * Deletes this database's backups older than `keepDays` (by the time in their name), so personal
 * data erased from the database (forget, retention) is gone from the backups too after that many
 * days. Other files in the folder are left alone. Returns the deleted paths.
 */
export function pruneBackups(file: string, destDir: string, keepDays: number, now = new Date()): string[] {
  if (!fs.existsSync(destDir)) return [];
  const prefix = `${path.basename(file, path.extname(file))}-`;
  const cutoff = now.getTime() - keepDays * 86_400_000;
  const deleted: string[] = [];
  for (const name of fs.readdirSync(destDir)) {
    // What backupSqlite writes: <name>-2026-11-22T21-30-00-000Z.db
    const stamp = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.db$/.exec(
      name.startsWith(prefix) ? name.slice(prefix.length) : '',
    );
    if (!stamp) continue;
    const taken = Date.parse(`${stamp[1]}T${stamp[2]}:${stamp[3]}:${stamp[4]}.${stamp[5]}Z`);
    if (Number.isFinite(taken) && taken < cutoff) {
      fs.rmSync(path.join(destDir, name));
      deleted.push(path.join(destDir, name));
    }
  }
  return deleted;
}
