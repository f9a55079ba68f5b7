import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupSqlite, pruneBackups } from '../../db/backup';
import { createDb } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-backups-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('backups age out', () => {
  it('deletes this database’s backups older than BACKUP_KEEP_DAYS and nothing else', async () => {
    const file = path.join(tmp, 'app.db');
    const database = createDb(`sqlite:${file}`);
    await migrateToLatest(database.db);
    await database.close();
    const dir = path.join(tmp, 'backups');
    const now = new Date('2026-11-22T03:00:00Z');
    const day = 86_400_000;
    const old = await backupSqlite(file, dir, new Date(now.getTime() - 40 * day));
    const edge = await backupSqlite(file, dir, new Date(now.getTime() - 34 * day));
    const recent = await backupSqlite(file, dir, new Date(now.getTime() - day));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'kept');
    fs.writeFileSync(path.join(dir, 'other-2020-01-01T00-00-00-000Z.db'), 'another database');

    expect(pruneBackups(file, dir, 35, now)).toEqual([old]);
    expect(fs.readdirSync(dir).sort()).toEqual(
      [path.basename(edge), path.basename(recent), 'notes.txt', 'other-2020-01-01T00-00-00-000Z.db'].sort(),
    );
    // Run again: nothing more to delete.
    expect(pruneBackups(file, dir, 35, now)).toEqual([]);
    expect(pruneBackups(file, path.join(tmp, 'no-such-folder'), 35, now)).toEqual([]);
  });
});
