import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { bookingPayload, inDays } from '../helpers/factories';
import { initDataFor, TEST_BOT_TOKEN } from '../helpers/telegram';
import { isPostgres } from '../helpers/db';

// The real entry point (server/main.ts) in its own process, stopped with SIGTERM under load.
describe.skipIf(isPostgres())('graceful shutdown', () => {
  it('finishes in-flight bookings, loses none, and closes the SQLite file cleanly', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-shutdown-'));
    const port = 19_000 + Math.floor(Math.random() * 1000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: `sqlite:${dir}/app.db`,
        DATA_DIR: dir,
        PORT: String(port),
        FIRST_SUPERUSER_PASSWORD: 'superuser-password-1',
        BOT_TOKEN: TEST_BOT_TOKEN,
        TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
        LOG_LEVEL: 'silent',
        DIST_DIR: dir,
      },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}/api/v1`;
    try {
      for (let i = 0; i < 200; i++) {
        if (
          await fetch(`${base}/utils/health-check/`).then(
            (r) => r.ok,
            () => false,
          )
        )
          break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const login = await fetch(`${base}/login/access-token`, {
        method: 'POST',
        body: new URLSearchParams({ username: 'admin@example.com', password: 'superuser-password-1' }),
      });
      const staff = {
        authorization: `Bearer ${(await login.json()).access_token}`,
        'content-type': 'application/json',
      };
      const post = (url: string, body: unknown, headers: Record<string, string> = staff) =>
        fetch(`${base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json());
      const w = await post('/workshops/', { title: 'Паста' });
      const a = await post('/address/', { title: 'Адрес', map_link: 'https://m' });
      const s = await post('/schedule/', { date: inDays(3), capacity: 8, workshop_id: w.id, address_id: a.id });

      const bookings = Array.from({ length: 60 }, (_, i) =>
        fetch(`${base}/records/`, {
          method: 'POST',
          headers: { authorization: `tma ${initDataFor({ id: 7_000_000 + i })}`, 'content-type': 'application/json' },
          body: JSON.stringify(bookingPayload(s.id)),
        }).then(
          (r) => r.status,
          () => 0,
        ),
      );
      await bookings[0];
      child.kill('SIGTERM');
      const statuses = await Promise.all(bookings);
      expect(await exited).toBe(0);

      // (checked before opening it again) A clean close checkpoints the write-ahead log into the database file.
      expect(fs.existsSync(path.join(dir, 'app.db-wal'))).toBe(false);
      const db = new SQLite(path.join(dir, 'app.db'), { readonly: true });
      const stored = (db.prepare('select count(*) n from records').get() as { n: number }).n;
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
      // Every booking the server confirmed is stored, and it stored nothing it did not confirm.
      expect(stored).toBe(statuses.filter((st) => st === 201).length);
      expect(statuses.filter((st) => ![201, 503, 0].includes(st))).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
