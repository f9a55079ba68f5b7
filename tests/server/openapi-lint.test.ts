import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';

// Spectral's `spectral:oas` ruleset (.spectral.yaml, `npm run lint:openapi`) finds nothing in the served document:
// every operation has an operationId, a description and a declared tag, the info says what the API is and who to ask.

const ROOT = path.resolve(import.meta.dirname, '../..');
let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-spectral-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the OpenAPI document under Spectral', () => {
  it('gives no error, warning or hint with the spectral:oas ruleset', async () => {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, (await t.app.inject({ url: '/api/v1/openapi.json' })).body);
    const run = spawnSync(
      path.join(ROOT, 'node_modules/.bin/spectral'),
      [
        'lint',
        file,
        '--ruleset',
        path.join(ROOT, '.spectral.yaml'),
        '--format',
        'json',
        '--quiet',
        '--fail-severity',
        'hint',
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, SCARF_ANALYTICS: 'false' } },
    );
    const found = JSON.parse(run.stdout || '[]') as { code: string; path: string[]; message: string }[];
    expect(found.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)).toEqual([]);
    expect(run.status, run.stderr).toBe(0);
  }, 60_000);
});
