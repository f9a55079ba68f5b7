import path from 'node:path';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { coreFolder, cycles, folderGraph, importGraph, relativeImports, ROOT } from '../helpers/folder-graph';

// The folders form a one-way graph (contract ← db ← core ← {server, bot} ← main), and `npm run lint`
// is what enforces it: an import against the graph, in a real file of each folder, fails lint.
// The rule is read from eslint.config.js for each file and run without type information (an import's
// path needs no types; building the typed program took a minute).

const eslint = new ESLint({ cwd: ROOT });
const linter = new Linter({ cwd: ROOT, configType: 'flat' });

async function restricted(file: string, code: string): Promise<string[]> {
  const filename = path.join(ROOT, file);
  const rule = ((await eslint.calculateConfigForFile(filename)) as Linter.Config).rules?.['no-restricted-imports'];
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts', '**/*.tsx'],
        languageOptions: { parser: tseslint.parser as Linter.Parser },
        rules: { 'no-restricted-imports': rule ?? 'off' },
      },
    ],
    { filename },
  );
  return messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
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
});

describe('handlers translate, core decides', () => {
  it('a route or a bot handler that imports a writing repository function fails lint; reads pass', async () => {
    for (const file of ['server/routes/records.ts', 'bot/features/journey.ts', 'bot/conversations/cancel.ts'])
      expect(
        await restricted(
          file,
          "import { updateRecord } from '../../db/repositories/records';\nexport const x = updateRecord;\n",
        ),
      ).toHaveLength(1);
    expect(
      await restricted(
        'server/routes/records.ts',
        "import { getRecord } from '../../db/repositories/records';\nexport const x = getRecord;\n",
      ),
    ).toEqual([]);
    // Core itself writes through repositories.
    expect(
      await restricted(
        'core/booking/engine.ts',
        "import { updateRecord } from '../../db/repositories/records';\nexport const x = updateRecord;\n",
      ),
    ).toEqual([]);
  });
});

/*
 * Cycles that wait for the change that removes them (each owner is reshaping these files): none may be
 * added; drop an entry when its cycle is gone.
 */
const WAITING: string[] = [];

describe("core's layers", () => {
  // kernel ← fiscal ← ledger ← booking ← {payments, certificates, promo, journey, schedules, …} ← jobs: a folder
  // imports only folders below it, so no two of them import each other, even through others.
  const layers = folderGraph(importGraph(['core']), coreFolder);

  it('no cycle among core/* folders', () => {
    expect(layers.size).toBeGreaterThan(10);
    expect(cycles(layers).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('the kernel imports no other folder of core; fiscal only the kernel; the ledger those two; notify no capability above booking', () => {
    expect(layers.get('core/kernel')).toEqual([]);
    // The ledger writes each row's receipt in the row's transaction, so the receipts sit right under it.
    expect((layers.get('core/fiscal') ?? []).filter((f) => f !== 'core/kernel')).toEqual([]);
    expect([...(layers.get('core/ledger') ?? [])].sort()).toEqual(['core/fiscal', 'core/kernel']);
    const notify = layers.get('core/notify') ?? [];
    for (const above of ['core/booking', 'core/payments', 'core/certificates', 'core/promo'])
      expect(notify).not.toContain(above);
  });

  it('the check finds a cycle between folders planted through a third', () => {
    const planted = new Map(importGraph(['core']));
    planted.set('core/kernel/planted.ts', ['core/payments/hold.ts']);
    expect(cycles(folderGraph(planted, coreFolder))).not.toEqual([]);
  });
});

describe('the import graph', () => {
  it('has no cycle, counting type-only and lazy imports', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    const found = cycles(graph).map((c) => c.join(' -> '));
    expect(found.filter((c) => !WAITING.includes(c))).toEqual([]);
  });

  it('the check finds a cycle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('reads every kind of import from the text, and none from comments or strings', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from '../b/b';",
      "export { c } from './c.ts';",
      "export type { D } from './d';",
      "import './e';",
      "const F = lazy(() => import('./f'));",
      'import {',
      '  g,',
      "} from './g';",
      "// import { h } from './h';",
      "/* import('./i') */",
      "const url = 'https://example.com/x'; import { j } from 'fastify';",
    ].join('\n');
    expect(relativeImports(source).sort()).toEqual(['../b/b', './a', './c.ts', './d', './e', './f', './g']);
  });
});
