import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// `npm test`: everything that needs no browser. The "server" project is the one
// rerun on PostgreSQL (TEST_DATABASE_URL) by `npm run test:pg`.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts', 'tests/db/**/*.test.ts', 'tests/bot/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
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
