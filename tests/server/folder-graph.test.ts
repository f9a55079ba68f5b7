import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The folders form a one-way graph (contract ← db ← core ← {server, bot} ← main), and `npm run lint`
// is what enforces it: an import against the graph, in a real file of each folder, fails lint.

const ROOT = path.resolve(import.meta.dirname, '../..');

async function restricted(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the folder graph', () => {
  it.each([
    ['server/app.ts', "import { createBot } from '../bot/createBot';\nexport const x = createBot;\n"],
    ['bot/createBot.ts', "import { buildApp } from '../server/app';\nexport const x = buildApp;\n"],
    ['db/database.ts', "import { MSG } from '../core/booking';\nexport const x = MSG;\n"],
    ['contract/common.ts', "import { createDb } from '../db/database';\nexport const x = createDb;\n"],
    ['core/booking/engine.ts', "import Fastify from 'fastify';\nexport const x = Fastify;\n"],
    ['core/booking/engine.ts', "import { Bot } from 'grammy';\nexport const x = Bot;\n"],
    ['webapp/src/api.ts', "import { getRecord } from '../../db/repositories/records';\nexport const x = getRecord;\n"],
    ['admin/src/api.ts', "import { MSG } from '../../core/booking/engine';\nexport const x = MSG;\n"],
  ])('%s may not import against it', async (file, code) => {
    expect(await restricted(file, code)).toHaveLength(1);
  });

  it('allows the arrows it has: core from db and contract, server and bot from core, main wiring the bot', async () => {
    expect(
      await restricted(
        'core/booking/engine.ts',
        "import { createDb } from '../../db/database';\nexport const x = createDb;\n",
      ),
    ).toEqual([]);
    expect(
      await restricted('bot/createBot.ts', "import { MSG } from '../core/booking/engine';\nexport const x = MSG;\n"),
    ).toEqual([]);
    expect(
      await restricted(
        'server/main.ts',
        "import { createTelegram } from '../bot/runtime';\nexport const x = createTelegram;\n",
      ),
    ).toEqual([]);
    expect(
      await restricted(
        'bot/features/my.ts',
        "import { webAppButton } from '../keyboards/webapp';\nexport const x = webAppButton;\n",
      ),
    ).toEqual([]);
  });
}, 60_000);
