import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// package.json says what the code needs, exactly: what is imported is declared, what is declared is
// used, and `npm install` on a clean clone leaves package-lock.json as it is.

const ROOT = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const declared: Record<string, string> = { ...pkg.dependencies, ...pkg.devDependencies };

/** Declared, needed, and imported by no file; each with why. (@types/x goes with x.) */
const USED_WITHOUT_IMPORT: Record<string, string> = {
  typescript: 'tsc: npm run typecheck',
  eslint: 'npm run lint',
  prettier: 'npm run lint checks the formatting',
  'axe-core': 'its script is injected into pages by the browser suites (tests/helpers/miniapp.ts)',
  tsx: 'npm run dev, bench and db:seed-demo run TypeScript directly',
  'happy-dom': "the component tests' environment (vitest.config.ts)",
  recharts: "@mantine/charts' peer dependency: the dashboard's charts",
  '@stoplight/spectral-cli': 'npm run lint:openapi (and tests/server/openapi-lint.test.ts) lint the OpenAPI document',
};

/** Whether `version` (x.y.z) meets an engines range as packages write them: `||` of `>=a.b`, `^a.b`, `a`, `a.x`, `>=a <b`. */
function satisfies(version: string, range: string): boolean {
  const v = version.split('.').map(Number);
  const cmp = (w: number[]) => v[0] - w[0] || v[1] - (w[1] ?? 0) || v[2] - (w[2] ?? 0);
  const parse = (s: string) =>
    s
      .replace(/^v/, '')
      .split('.')
      .map((n) => (n === 'x' || n === '*' ? NaN : Number(n)));
  return range.split('||').some((alt) =>
    alt
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .every((c) => {
        const [, op, rest] = c.match(/^(>=|<=|>|<|\^|~|=)?\s*(.+)$/) ?? [];
        if (!rest || rest === '*') return true;
        const w = parse(rest);
        if (op === '>=') return cmp(w) >= 0;
        if (op === '>') return cmp(w) > 0;
        if (op === '<') return cmp(w) < 0;
        if (op === '<=') return cmp(w) <= 0;
        if (op === '^') return v[0] === w[0] && cmp(w) >= 0;
        if (op === '~') return v[0] === w[0] && v[1] === (w[1] ?? v[1]) && cmp(w) >= 0;
        // `20`, `20.x`, `=20.19.0`: the parts written must match.
        return w.every((n, i) => Number.isNaN(n) || n === v[i]);
      }),
  );
}

const SKIP = new Set(['node_modules', 'dist', 'data', 'test-results', 'coverage', '.git']);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    // dist-*: a developer's own build folders (git-ignored).
    if (SKIP.has(entry.name) || entry.name.startsWith('dist-')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (/\.(m?[jt]sx?|cjs)$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** Package name → files importing it (static, dynamic, side-effect and type imports, require). */
function importedPackages(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  // A specifier is a package name: not relative, no spaces or commas (`['from', '0001-01-01']` is no import).
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"./\s,][^'"\s,]*)['"]/g;
  for (const file of sourceFiles(ROOT)) {
    for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(pattern)) {
      if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      const name = spec
        .split('/')
        .slice(0, spec.startsWith('@') ? 2 : 1)
        .join('/');
      found.set(name, [...(found.get(name) ?? []), path.relative(ROOT, file)]);
    }
  }
  return found;
}

describe('dependencies', () => {
  const imported = importedPackages();

  it('every package the code imports (server, scripts, bench, tests, front ends, configs) is declared in package.json', () => {
    const undeclared = [...imported]
      .filter(([name]) => !(name in declared))
      .map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(undeclared).toEqual([]);
  });

  it('every declared package is used', () => {
    const unused = Object.keys(declared).filter((name) => {
      if (imported.has(name) || name in USED_WITHOUT_IMPORT) return false;
      const typed = name.match(/^@types\/(.+)$/)?.[1]?.replace(/^(.+)__(.+)$/, '@$1/$2');
      return !(typed && (typed === 'node' || imported.has(typed)));
    });
    expect(unused).toEqual([]);
  });

  it('package-lock.json records exactly the ranges package.json declares (what npm install would rewrite)', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
    const root = lock.packages[''];
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
      expect(root[field] ?? {}, field).toEqual(pkg[field] ?? {});
    }
  });

  it('no installed package needs a newer Node than package.json states (npm install warns EBADENGINE for none)', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
    const oldest = String(pkg.engines.node).match(/^>=\s*(\d+\.\d+(?:\.\d+)?)$/)![1];
    const [major, minor = '0', patch = '0'] = oldest.split('.');
    const node = `${major}.${minor}.${patch}`;
    const tooNew = Object.entries(lock.packages as Record<string, { version?: string; engines?: { node?: string } }>)
      .filter(([name, p]) => name && typeof p.engines?.node === 'string' && !satisfies(node, p.engines.node))
      .map(([name, p]) => `${name}@${p.version} needs Node ${p.engines!.node}`);
    expect(tooNew).toEqual([]);
    // The check itself: the ranges that were there before the pins.
    expect(satisfies(node, '>=22')).toBe(false);
    expect(satisfies(node, '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies(node, '18 || 20 || >=22')).toBe(true);
    expect(satisfies(node, '^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
  });

  it('npm install on a clean clone leaves package-lock.json unchanged', (ctx) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-lock-'));
    try {
      for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
      const before = fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
      // Resolves from the lock (no install, no scripts), as `npm install` would; a `latest` range needs the registry's metadata.
      const npm = spawnSync(
        'npm',
        ['install', '--package-lock-only', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
        { cwd: dir, encoding: 'utf8' },
      );
      if (npm.status !== 0 && /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT/.test(npm.stderr))
        ctx.skip('the npm registry is unreachable');
      expect(npm.status, npm.stderr).toBe(0);
      expect(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8')).toBe(before);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
