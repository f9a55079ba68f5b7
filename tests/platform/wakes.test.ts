import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createWaker } from '../../platform/wakes';
import { createStudioHost } from '../../platform/host';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

/*
 * The studios' periodic jobs by the due index: a tick runs the studios due and no other, an idle
 * studio is due again only after the idle wake, and two instances never both run one studio's wake.
 */

const SILENT = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  fatal() {},
  trace() {},
  child: () => SILENT,
  level: 'silent',
} as never;
let p: TestPlatform;

beforeAll(async () => {
  p = await startTestPlatform();
  for (let i = 1; i <= 6; i++) await p.addStudio(`wake-${i}`, 100 + i);
}, 60_000);
afterAll(async () => p?.close());

const dueAt = async () =>
  Object.fromEntries(
    (
      await p.store.db
        .selectFrom('wakes')
        .innerJoin('studios', 'studios.id', 'wakes.studio_id')
        .select(['slug', 'due_at'])
        .execute()
    ).map((r) => [r.slug, Date.parse(r.due_at)]),
  );

describe('the waker', () => {
  it('runs only the studios due, then not again before the idle wake', async () => {
    const now = Date.now();
    // Half the studios are due in an hour: a tick now leaves them alone.
    await p.store.db
      .updateTable('wakes')
      .set({ due_at: new Date(now + 3_600_000).toISOString() })
      .where(
        'studio_id',
        'in',
        (
          await p.store.db
            .selectFrom('studios')
            .select('id')
            .where('slug', 'in', ['wake-4', 'wake-5', 'wake-6'])
            .execute()
        ).map((r) => r.id),
      )
      .execute();
    const waker = createWaker({ store: p.store, host: p.host, log: SILENT, tickMs: 1000, idleWakeMs: 300_000 });
    expect(await waker.runDue(new Date(now))).toBe(3);
    const after = await dueAt();
    // Due again after the idle wake, give or take a tenth (so studios do not come due in bursts).
    for (const s of ['wake-1', 'wake-2', 'wake-3']) {
      expect(after[s]).toBeGreaterThanOrEqual(now + 270_000);
      expect(after[s]).toBeLessThanOrEqual(now + 330_000);
    }
    expect(new Set(['wake-1', 'wake-2', 'wake-3'].map((s) => after[s])).size).toBeGreaterThan(1);
    for (const s of ['wake-4', 'wake-5', 'wake-6']) expect(after[s]).toBe(now + 3_600_000);
    // The next tick finds nothing due.
    expect(await waker.runDue(new Date(now + 1000))).toBe(0);
  });

  it('never runs one studio on two instances at once', async () => {
    const now = Date.now() + 10_000_000;
    await p.store.db
      .updateTable('wakes')
      .set({ due_at: new Date(now - 1).toISOString() })
      .execute();
    // A second instance: its own host over the same store and servers.
    const other = createStudioHost({
      config: p.config,
      store: p.store,
      servers: p.servers,
      log: SILENT,
      background: false,
    });
    const w1 = createWaker({ store: p.store, host: p.host, log: SILENT, tickMs: 1000, idleWakeMs: 300_000 });
    const w2 = createWaker({ store: p.store, host: other, log: SILENT, tickMs: 1000, idleWakeMs: 300_000 });
    const [a, b] = await Promise.all([w1.runDue(new Date(now)), w2.runDue(new Date(now))]);
    expect(a + b).toBe(6);
    await other.close();
  });

  it('works off more due studios than one read of the index in a single tick', async () => {
    const now = Date.now() + 20_000_000;
    await p.store.db
      .updateTable('wakes')
      .set({ due_at: new Date(now - 1).toISOString() })
      .execute();
    const waker = createWaker({
      store: p.store,
      host: p.host,
      log: SILENT,
      tickMs: 60_000,
      idleWakeMs: 300_000,
      batch: 2,
    });
    expect(await waker.runDue(new Date(now))).toBe(6);
    expect(await waker.runDue(new Date(now + 1000))).toBe(0);
  });

  it('runs a studio busy with requests every tick', async () => {
    const now = Date.now();
    await p.store.db
      .updateTable('wakes')
      .set({ due_at: new Date(now + 3_600_000).toISOString() })
      .execute();
    expect((await fetch(`${p.url}/s/wake-2/api/v1/schedule/public`)).status).toBe(200);
    const waker = createWaker({ store: p.store, host: p.host, log: SILENT, tickMs: 1000, idleWakeMs: 300_000 });
    expect(await waker.runDue(new Date(now))).toBe(1);
    expect((await dueAt())['wake-2']).toBe(now + 1000);
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('pooled connections on PostgreSQL', () => {
  it("carry no studio's schema: every statement names its own, and concurrent requests see only theirs", async () => {
    const staff = await Promise.all(['wake-1', 'wake-2'].map((s) => p.auth(s)));
    await Promise.all(
      ['wake-1', 'wake-2'].map((slug, i) =>
        fetch(`${p.url}/s/${slug}/api/v1/workshops/`, {
          method: 'POST',
          headers: { ...staff[i], 'content-type': 'application/json' },
          body: JSON.stringify({ title: `Мастер-класс ${slug}`, price: 100 }),
        }),
      ),
    );
    const reads = await Promise.all(
      Array.from({ length: 120 }, async (_, n) => {
        const i = n % 2;
        const res = await fetch(`${p.url}/s/wake-${i + 1}/api/v1/workshops/1`, { headers: staff[i] });
        return [i, ((await res.json()) as { title: string }).title] as const;
      }),
    );
    for (const [i, title] of reads) expect(title).toBe(`Мастер-класс wake-${i + 1}`);
    // And what is left on the pool's connections: the path that finds no table.
    const { rows } = await sql<{ search_path: string }>`show search_path`.execute(p.servers.get('main').db);
    expect(rows[0].search_path).toBe('no_studio_schema');
  });
});
