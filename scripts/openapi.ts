import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { createDb } from '../db/database';
import { migrateToLatest } from '../db/migrate';

// `npm run lint:openapi` writes the API's OpenAPI document to the file named (stdout without one) for Spectral.
// The document depends only on the routes: a throwaway SQLite database and no bot are enough to build it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-openapi-'));
try {
  const config = loadConfig(
    {
      DATABASE_URL: `sqlite:${path.join(dir, 'openapi.db')}`,
      SECRET_KEY: 'openapi-document-only-0123456789abcdef0123456789',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
    },
    { dotenv: false },
  );
  const database = createDb(config.databaseUrl);
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database });
  const res = await app.inject({ url: '/api/v1/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.statusCode}`);
  const text = JSON.stringify(res.json(), null, 2) + '\n';
  const out = process.argv[2];
  if (out) {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, text);
  } else process.stdout.write(text);
  await app.close();
  await database.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
