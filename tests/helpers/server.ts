import type { Config } from '../../server/config';
import { buildTestApp, type TestApp } from './app';

/**
 * A real listening server (for browser tests and benchmarks) on a fresh database, serving the
 * built bundles from DIST_DIR (default ./dist). Superuser: admin@example.com / superuser-password-1.
 */
export async function startTestServer(
  opts: { env?: Record<string, string>; config?: Partial<Config> } = {},
): Promise<TestApp & { url: string }> {
  const t = await buildTestApp({ env: { DIST_DIR: process.env.DIST_DIR ?? 'dist', ...opts.env }, config: opts.config });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { ...t, url: `http://127.0.0.1:${port}` };
}
