import fs from 'node:fs';
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
}, 60_000);

/** Every relative import of the TypeScript sources (type-only imports do not run, so they cannot form a cycle). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(e.name)) {
        const src = fs.readFileSync(path.join(ROOT, rel), 'utf8');
        const targets: string[] = [];
        for (const m of src.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms)) {
          const base = path.join(path.dirname(rel), m[1].replace(/\.(ts|tsx|js)$/, ''));
          const target = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((f) =>
            fs.existsSync(path.join(ROOT, f)),
          );
          if (target) targets.push(target);
        }
        graph.set(rel, targets);
      }
    }
  };
  for (const dir of ['contract', 'db', 'core', 'server', 'bot', 'webapp/src', 'admin/src']) walk(dir);
  return graph;
}

/** The cycles of a graph, each as the path that closes it (depth-first, colouring). */
function cycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[][] = [];
  const visit = (node: string, trail: string[]) => {
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...trail.slice(trail.indexOf(next)), node, next]);
      else if (!state.has(next)) visit(next, [...trail, node]);
    }
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node, []);
  return found;
}

describe('the import graph', () => {
  it('has no cycle', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph)).toEqual([]);
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
});
