import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';

/*
 * SQLite's write transactions commit in groups: each waits for the event loop's check phase (what has
 * arrived is read first), then the waiting ones run in order, each under its own savepoint, and one
 * COMMIT ends the group. A caller hears of its result only once that commit is done.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** SQLite whichever database the run is on: the rule is SQLite's. */
async function sqliteDatabase(): Promise<Database> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-turns-'));
  const database = createDb(`sqlite:${path.join(dir, 'app.db')}`);
  cleanups.push(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await sql`create table marks (id integer primary key, what text not null)`.execute(database.db);
  return database;
}

/** A loopback connection: what one end writes, the other reads in a later poll of the event loop. */
async function loopback(onData: () => void): Promise<net.Socket> {
  const server = net.createServer((socket) => socket.on('data', onData));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', resolve));
  cleanups.push(async () => {
    client.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  // The server side has accepted it before the test starts.
  await new Promise((r) => setTimeout(r, 20));
  return client;
}

describe('SQLite write transactions and the event loop', () => {
  it('what has arrived on a socket is read before a transaction asked for meanwhile begins; transactions keep their order', async () => {
    const database = await sqliteDatabase();
    const order: string[] = [];
    const client = await loopback(() => order.push('request read'));
    // A request is on its way when the first booking is asked for.
    client.write('x');
    await Promise.all(
      ['first', 'second', 'third'].map((what) =>
        withWriteTransaction(database, async (trx) => {
          await sql`insert into marks (what) values (${what})`.execute(trx);
          order.push(what);
        }),
      ),
    );
    expect(order).toEqual(['request read', 'first', 'second', 'third']);
    const { rows } = await sql<{ what: string }>`select what from marks order by id`.execute(database.db);
    expect(rows.map((r) => r.what)).toEqual(['first', 'second', 'third']);
  });

  it('a caller gets its result only when its rows are committed: another connection reads them then', async () => {
    const database = await sqliteDatabase();
    const other = new SQLite(database.file!, { readonly: true });
    cleanups.push(async () => void other.close());
    const seen = await Promise.all(
      ['a', 'b', 'c'].map(async (what) => {
        await withWriteTransaction(database, (trx) => sql`insert into marks (what) values (${what})`.execute(trx));
        return (other.prepare('select what from marks where what = ?').get(what) as { what: string } | undefined)?.what;
      }),
    );
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('a failing transaction of a group rolls back alone; the others commit, in order', async () => {
    const database = await sqliteDatabase();
    const results = await Promise.allSettled(
      ['a', 'fails', 'b'].map((what) =>
        withWriteTransaction(database, async (trx) => {
          await sql`insert into marks (what) values (${what})`.execute(trx);
          if (what === 'fails') throw new Error('refused');
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const { rows } = await sql<{ what: string }>`select what from marks order by id`.execute(database.db);
    expect(rows.map((r) => r.what)).toEqual(['a', 'b']);
  });
});
