import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../server/config';
import { buildPlatform, type Platform, type PlatformDeps } from '../../platform/server';
import { createStudio, openStudioDatabase } from '../../platform/studios';
import { attachBot } from '../../platform/bots';
import { ensureFirstSuperuser } from '../../core/staff/users';
import { freshDatabaseUrl } from './db';
import { SUPERUSER } from './app';

/** A bot of a test studio: its token signs the studio's customers' init data. */
export const studioBot = (n: number) => ({
  id: 700_000 + n,
  username: `studio${n}_bot`,
  token: `${700_000 + n}:STUDIO-token-${n}-for-tests`,
});

export interface TestPlatform extends Platform {
  url: string;
  config: Config;
  /** A studio with a bot and a superuser (SUPERUSER), created as onboarding would. */
  addStudio(slug: string, n: number): Promise<{ slug: string; id: number; bot: ReturnType<typeof studioBot> }>;
  /** Bearer header of a studio's superuser, logged in through the platform. */
  auth(slug: string): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

/** The platform on a fresh database (SQLite folder, or PostgreSQL with TEST_DATABASE_URL), listening on loopback. */
export async function startTestPlatform(
  opts: { env?: Record<string, string>; databaseUrl?: string; dataDir?: string; deps?: Partial<PlatformDeps> } = {},
): Promise<TestPlatform> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wb-platform-'));
  const fresh = opts.databaseUrl
    ? { url: opts.databaseUrl, drop: async () => {} }
    : process.env.TEST_DATABASE_URL
      ? await freshDatabaseUrl()
      : { url: `sqlite:${path.join(dataDir, 'app.db')}`, drop: async () => {} };
  const config = loadConfig(
    {
      DATABASE_URL: fresh.url,
      SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
      DATA_DIR: dataDir,
      DIST_DIR: process.env.DIST_DIR ?? 'dist',
      LOG_LEVEL: 'silent',
      PLATFORM: 'true',
      ...opts.env,
    },
    { dotenv: false },
  );
  const platform = await buildPlatform({
    config,
    // PLATFORM_TEST_LOG=1 prints the studios' errors (the tests are otherwise silent).
    ...(process.env.PLATFORM_TEST_LOG && { log: (await import('pino')).default({ level: 'error' }) }),
    ...opts.deps,
    host: {
      background: false,
      app: { rateLimits: { login: 10_000, passwordRecovery: 10_000, customerWrites: 10_000 } },
      ...opts.deps?.host,
    },
  });
  await platform.app.listen({ port: 0, host: '127.0.0.1' });
  const address = platform.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    ...platform,
    url,
    config,
    async addStudio(slug, n) {
      const studio = await createStudio(platform.store, platform.servers, dataDir, {
        name: `Студия ${n}`,
        slug,
        timezone: 'Europe/Belgrade',
        ownerTelegramId: null,
      });
      const bot = studioBot(n);
      await attachBot(platform.store, config.secretKey, studio.id, bot);
      const database = openStudioDatabase(studio, platform.servers, dataDir);
      await ensureFirstSuperuser(database, SUPERUSER);
      await database.close();
      return { slug: studio.slug, id: studio.id, bot };
    },
    async auth(slug) {
      const res = await fetch(`${url}/s/${slug}/api/v1/login/access-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: SUPERUSER.email, password: SUPERUSER.password }).toString(),
      });
      if (res.status !== 200) throw new Error(`login to ${slug} failed: ${res.status} ${await res.text()}`);
      return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
    },
    async close() {
      await platform.app.close();
      await fresh.drop();
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
