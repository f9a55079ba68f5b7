import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/config';
import { platformRoutes } from '../../platform/routes';
import { startTestPlatform, type TestPlatform } from './platform';

/** The platform owner of the tests (FIRST_SUPERUSER / FIRST_SUPERUSER_PASSWORD). */
export const OWNER = { email: 'owner@platform.test', password: 'owner-password-1' };

export interface OwnerPlatform extends TestPlatform {
  /** What the routes told on start (the first owner's line). */
  announced: string[];
  /** The owner's Bearer header, logged in through /api/platform/login. */
  ownerAuth(): Promise<{ authorization: string }>;
}

/**
 * startTestPlatform with the platform owner's routes (platform/routes.ts) registered, as server/main.ts
 * registers them: the routes get the same configuration the platform was built with.
 */
export async function startOwnerPlatform(opts: { env?: Record<string, string> } = {}): Promise<OwnerPlatform> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-platform-owner-'));
  const env = { FIRST_SUPERUSER: OWNER.email, FIRST_SUPERUSER_PASSWORD: OWNER.password, ...opts.env };
  // The fields the routes read (SECRET_KEY, DATA_DIR, TELEGRAM_API_ROOT, FIRST_SUPERUSER…) as startTestPlatform sets them.
  const config = loadConfig(
    {
      DATABASE_URL: `sqlite:${path.join(dataDir, 'app.db')}`,
      SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
      DATA_DIR: dataDir,
      DIST_DIR: process.env.DIST_DIR ?? 'dist',
      LOG_LEVEL: 'silent',
      PLATFORM: 'true',
      ...env,
    },
    { dotenv: false },
  );
  const announced: string[] = [];
  const p = await startTestPlatform({
    env,
    dataDir,
    deps: {
      routes: (app, platform) => platformRoutes(app, { ...platform, config, announce: (t) => announced.push(t) }),
    },
  });
  return {
    ...p,
    announced,
    async ownerAuth() {
      const res = await fetch(`${p.url}/api/platform/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
      });
      if (res.status !== 200) throw new Error(`owner login failed: ${res.status} ${await res.text()}`);
      return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
    },
    async close() {
      await p.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
