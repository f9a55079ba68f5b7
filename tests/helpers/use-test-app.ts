import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestApp } from './app';

export interface TestAppParts {
  t: TestApp;
  /** The superuser, logged in. */
  staff: { authorization: string };
}

/**
 * One server for a whole test file on a fresh, migrated database: built before the first test, closed
 * after the last. `ready` hands the parts to the file (and may prepare more). Apart from app.ts, which
 * the benchmarks import without vitest.
 */
export function useTestApp(ready: (parts: TestAppParts) => unknown, opts?: Parameters<typeof buildTestApp>[0]): void {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await buildTestApp(opts);
    await ready({ t, staff: await t.auth() });
  });
  afterAll(() => t?.close());
}
