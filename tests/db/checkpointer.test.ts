import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';

/*
 * SQLite's checkpoint (the write-ahead log copied back into the database file, with an fsync) runs on
 * a worker thread of its own, so no commit waits for the disk; the server opens its database this way.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function fresh(): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-ckpt-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return { dir, file: path.join(dir, 'app.db') };
}

/** About `pages` pages of 4 KB written by committed write transactions, as bookings are. */
async function write(database: Database, pages: number) {
  await sql`create table if not exists filler (id integer primary key, body text not null)`.execute(database.db);
  for (let i = 0; i < pages; i++)
    await withWriteTransaction(database, (trx) =>
      sql`insert into filler (body) values (${'x'.repeat(4000)})`.execute(trx),
    );
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return check();
};

describe('the SQLite checkpointer', () => {
  it('copies what the server commits into the database file on its own thread, before SQLite itself would', async () => {
    const { file } = fresh();
    const database = createDb(`sqlite:${file}`, { checkpointer: true });
    cleanups.push(() => database.close());
    await sql`select 1`.execute(database.db);
    const before = fs.statSync(file).size;
    // Fewer pages than SQLite's own threshold (1,000): without the worker the file would not grow yet.
    await write(database, 300);
    expect(await until(() => fs.statSync(file).size >= before + 300 * 4000)).toBe(true);
  });

  it('without it, the same writes stay in the log until SQLite checkpoints in a commit', async () => {
    const { file } = fresh();
    const database = createDb(`sqlite:${file}`);
    cleanups.push(() => database.close());
    await sql`select 1`.execute(database.db);
    const before = fs.statSync(file).size;
    await write(database, 300);
    await new Promise((r) => setTimeout(r, 300));
    expect(fs.statSync(file).size).toBe(before);
  });

  it('stops with the database: closing leaves no log behind and the data whole', async () => {
    const { file } = fresh();
    const database = createDb(`sqlite:${file}`, { checkpointer: true });
    await write(database, 50);
    await database.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const again = createDb(`sqlite:${file}`);
    cleanups.push(() => again.close());
    const { rows } = await sql<{ n: number }>`select count(*) as n from filler`.execute(again.db);
    expect(rows[0].n).toBe(50);
  });
});
