import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A fresh, empty database for one test file: an SQLite file in a temp folder, or, when
 * TEST_DATABASE_URL is set (the PostgreSQL rerun), a new database on that server, dropped afterwards.
 */
export async function freshDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!pgUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-test-'));
    return {
      url: `sqlite:${path.join(dir, 'app.db')}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `wb_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export const isPostgres = () => Boolean(process.env.TEST_DATABASE_URL);
