import { defineConfig } from 'vitest/config';

// `npm run test:e2e`: Debian's Chromium driven by playwright-core against the built server.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
