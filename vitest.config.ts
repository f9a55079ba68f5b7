import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/*
 * `npm test` runs the fast projects: "server" (core, db, server through app.inject, bot, on a fresh
 * SQLite per file) and "web" (components in happy-dom). The files below build the server bundle,
 * start processes or need PostgreSQL: they form the "slow" project (`npm run test:slow`). The
 * PostgreSQL rerun (`npm run test:pg`) runs "server" and "slow" with TEST_DATABASE_URL.
 */
const SLOW = [
  // The built server started as an operator starts it; the deploy files run against a real build.
  'tests/server/startup.test.ts',
  'tests/server/deploy.test.ts',
  // Processes: a server stopped by a signal, instances on one PostgreSQL, outbox workers killed mid-send.
  'tests/server/shutdown.test.ts',
  'tests/server/instances.test.ts',
  'tests/bot/outbox-instances.test.ts',
  'tests/bot/outbox-claims.test.ts',
  // The fiscal sender's processes: killed mid-send, two at once.
  'tests/server/fiscal-kill.test.ts',
  // Three platform processes on one PostgreSQL.
  'tests/platform/instances.test.ts',
];
const NODE = [
  'tests/core/**/*.test.ts',
  'tests/server/**/*.test.ts',
  'tests/db/**/*.test.ts',
  'tests/bot/**/*.test.ts',
  'tests/platform/**/*.test.ts',
];
const node = { environment: 'node', testTimeout: 30_000, hookTimeout: 30_000 } as const;

export default defineConfig({
  test: {
    // Most of a test's time is waiting on the database and loopback HTTP: two files at once use both cores.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          include: NODE,
          exclude: [...configDefaults.exclude, ...SLOW],
          // Each file has its own database and app, and none mocks a module or changes the environment: the
          // files of one worker share the loaded modules (importing the server again for each file took most
          // of the time: 10 files in 30 s instead of 62 s).
          isolate: false,
          ...node,
        },
      },
      { test: { name: 'slow', include: SLOW, ...node } },
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['tests/webapp/**/*.test.tsx', 'tests/admin/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['tests/helpers/dom-setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
