import fs from 'node:fs';
import path from 'node:path';

/*
 * The source's import graph, read from the text (no TypeScript program: a graph of file names needs no
 * types, and building the typed program took a minute). Every kind of import is an edge: static,
 * `import type` (a type cycle still ties the files' design together) and lazy (dynamic) imports.
 */

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SOURCE_FOLDERS = ['contract', 'db', 'core', 'server', 'bot', 'webapp/src', 'admin/src'];

/** A file's relative import specifiers (`./x`, `../y/z`), whatever the kind of import. */
export function relativeImports(source: string): string[] {
  // Comments may mention imports; a `//` inside a string (a URL) follows a `:`, so it is kept.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const found: string[] = [];
  for (const m of code.matchAll(/(?:^|[\s;}])(?:import|export)\s[^;'"]*?\bfrom\s*['"](\.[^'"]*)['"]/g))
    found.push(m[1]);
  for (const m of code.matchAll(/(?:^|[\s;}])import\s*['"](\.[^'"]*)['"]/g)) found.push(m[1]);
  for (const m of code.matchAll(/\bimport\(\s*['"](\.[^'"]*)['"]\s*\)/g)) found.push(m[1]);
  return found;
}

/** The source file a relative import of `from` (a path relative to the root) names, as the bundler resolves it. */
export function resolveImport(
  from: string,
  specifier: string,
  exists = (f: string) => fs.existsSync(path.join(ROOT, f)),
) {
  const base = path.join(path.dirname(from), specifier.replace(/\.(ts|tsx|js|jsx)$/, ''));
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find(exists);
}

/** file → the files it imports, for every TypeScript file under `folders` (paths relative to the root). */
export function importGraph(folders = SOURCE_FOLDERS): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) {
        const src = fs.readFileSync(path.join(ROOT, rel), 'utf8');
        const targets = relativeImports(src)
          .map((s) => resolveImport(rel, s))
          .filter((t): t is string => t !== undefined);
        graph.set(rel, [...new Set(targets)]);
      }
    }
  };
  for (const dir of folders) walk(dir);
  return graph;
}

/** The cycles of a graph, each as the path that closes it (depth-first, colouring). */
export function cycles(graph: Map<string, string[]>): string[][] {
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

/**
 * The graph of folders: `group(file)` names a file's folder (or undefined to leave it out); an edge for
 * each import between two different folders. E.g. `core/money/x.ts` → `core/money` for "no cycle among
 * core's folders".
 */
export function folderGraph(graph: Map<string, string[]>, group: (file: string) => string | undefined) {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = group(file);
    if (from === undefined) continue;
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const t of targets) {
      const to = group(t);
      if (to !== undefined && to !== from) edges.add(to);
    }
  }
  return new Map([...folders].map(([f, edges]) => [f, [...edges]]));
}

/** `core/<folder>` of a file under core/ (a file directly in core/ is its own folder). */
export const coreFolder = (file: string) => {
  const m = /^core\/([^/]+)/.exec(file.split(path.sep).join('/'));
  return m ? `core/${m[1].replace(/\.tsx?$/, '')}` : undefined;
};
