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
    await source.backup(dest);
  } finally {
    source.close();
  }
  return dest;
}
