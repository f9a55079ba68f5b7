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
};

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
