// Compiles the server and its production scripts to plain JavaScript in dist/server/, so
// production runs `node` without a TypeScript loader (less memory, faster start).
// `node scripts/build-server.js` (part of `npm run build`); scripts/start.js calls it when stale.
// Plain JavaScript on purpose: it must run before anything is compiled.
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Entry points only: whatever they import is followed, so moving internal files needs no change here. */
export const ENTRIES = {
  main: 'server/main.ts',
  migrate: 'scripts/migrate.ts',
  backup: 'scripts/backup.ts',
};
export const OUT_DIR = path.join(root, 'dist/server');
const META = 'meta.json';

/**
 * Pure-JavaScript packages loaded at start are copied into the bundle, with the packages they load:
 * loading them file by file (resolving, reading and compiling each of ~400 small modules) was the
 * largest part of the start-up time (kysely ~140 ms, zod ~70 ms, fastify and its plugins ~60 ms). The
 * type provider comes along so that it and the contract share one copy of zod.
 */
const INLINE = new Set([
  'kysely',
  'zod',
  'fastify-type-provider-zod',
  'fastify',
  '@fastify/cors',
  '@fastify/formbody',
  '@fastify/helmet',
  '@fastify/jwt',
  '@fastify/rate-limit',
  '@fastify/static',
]);

/**
 * What those packages load that stays in node_modules all the same: pino finds its worker files in its
 * own folder, and the rest is loaded only when reached, never by this server at start (inject() in
 * tests; the JSON-schema compilers, which the zod ones replace), so the bundle need not carry it.
 */
const NOT_INLINED = new Set([
  'pino',
  'light-my-request',
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
]);

/** The folder of package `name` that Node finds from `from` (nearest node_modules up the tree). */
function packageDir(from, name) {
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (dir === path.dirname(dir)) return null;
  }
}

/** A subpath such as `dayjs/plugin/utc` works in CommonJS but not in Node's ESM resolver (no
 * "exports" map, no extension): it becomes the file require() would load (`dayjs/plugin/utc.js`). */
function esmSpecifier(spec, require) {
  if (!/^(@[^/]+\/)?[^/]+\/./.test(spec)) return spec;
  let url = '';
  try {
    url = import.meta.resolve(spec);
  } catch {
    /* not resolvable as ESM: see below */
  }
  if (url.startsWith('file:') && fs.existsSync(fileURLToPath(url))) return spec;
  const file = require.resolve(spec);
  const ext = path.extname(file);
  return file.endsWith(spec + ext) ? spec + ext : spec;
}

/** Whether Node loads `spec` as CommonJS: by extension, else the "type" of the nearest package.json. */
function isCommonJs(spec, require) {
  let file;
  try {
    file = require.resolve(spec);
  } catch {
    return false;
  }
  if (/\.(cjs|json|node)$/.test(file)) return true;
  if (file.endsWith('.mjs')) return false;
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) return JSON.parse(fs.readFileSync(manifest, 'utf8')).type !== 'module';
  }
  return true;
}

/**
 * Every other npm package stays external, loaded from node_modules as it is: native addons, and
 * packages that read their own files (swagger-ui's pages, pino's workers) keep working. A CommonJS
 * package imported statically is loaded with require(), not import: Node's ESM wrapper around
 * CommonJS (it parses each package for its export names) cost ~50 ms of start-up.
 */
const packages = {
  name: 'packages',
  setup(build) {
    const require = createRequire(path.join(root, 'package.json'));
    build.onResolve({ filter: /^[^./]/ }, ({ path: spec, importer, kind }) => {
      if (spec.startsWith('node:') || builtinModules.includes(spec)) return { path: spec, external: true };
      const name = spec
        .split('/')
        .slice(0, spec.startsWith('@') ? 2 : 1)
        .join('/');
      if (INLINE.has(name)) return undefined;
      // Only inlined packages are read from node_modules, so this is a dependency of one: inlined too,
      // unless it stays out and the copy the bundle finds from the project root is the one it needs.
      if (
        importer.includes(`${path.sep}node_modules${path.sep}`) &&
        (!NOT_INLINED.has(name) || packageDir(importer, name) !== packageDir(path.join(root, 'package.json'), name))
      )
        return undefined;
      if (kind === 'import-statement' && isCommonJs(spec, require)) return { path: spec, namespace: 'require' };
      return { path: esmSpecifier(spec, require), external: true };
    });
    // A stand-in module whose require() stays in the bundle as a call to Node's require (see the banner).
    build.onLoad({ filter: /.*/, namespace: 'require' }, ({ path: spec }) => ({
      contents: `module.exports = require(${JSON.stringify(spec)});`,
      loader: 'js',
    }));
  },
};

/**
 * zod's translations of its messages into forty languages (~370 KB) are never used: the contract
 * brings its own Russian messages. Its `locales` namespace becomes empty, so start-up does not parse them.
 */
const noZodLocales = {
  name: 'no-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(importer) ? { path: 'zod-locales', namespace: 'empty' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/** Bundles every entry into OUT_DIR and records its inputs (meta.json) for the staleness check. */
export async function buildServer({ outDir = OUT_DIR } = {}) {
  const esbuild = await import('esbuild');
  fs.rmSync(outDir, { recursive: true, force: true });
  // stop(): esbuild's helper process would otherwise live as long as the server started after the build.
  const result = await esbuild
    .build({
      absWorkingDir: root,
      entryPoints: ENTRIES,
      outdir: outDir,
      bundle: true,
      // A dynamic import() becomes its own file, loaded only when reached (the bot without BOT_TOKEN is never loaded).
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      plugins: [noZodLocales, packages],
      sourcemap: 'linked',
      // Parsing and compiling is ~40% of the start-up's work; minified, there is a third less to parse.
      // Names stay, so a stack trace still reads; `node --enable-source-maps` gives its source lines.
      minifyWhitespace: true,
      minifySyntax: true,
      metafile: true,
      logLevel: 'warning',
      // The require() of the stand-ins above: an ES module has none of its own.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
      },
    })
    .finally(() => esbuild.stop());
  // An inlined module that looks for its own files would look next to the bundle (and __dirname does not exist in it).
  const selfReading = Object.keys(result.metafile.inputs).filter(
    (f) =>
      f.includes('node_modules/') && /\b__(dirname|filename)\b/.test(fs.readFileSync(path.resolve(root, f), 'utf8')),
  );
  if (selfReading.length > 0)
    throw new Error(
      `inlined modules that read their own files: ${selfReading.join(', ')}; keep their package out of the bundle`,
    );
  const inputs = Object.keys(result.metafile.inputs).filter(
    (f) => !f.startsWith('node_modules/') && !f.startsWith('require:'),
  );
  fs.writeFileSync(path.join(outDir, META), JSON.stringify({ inputs }, null, 1));
}

/** True when a bundle is missing or any source it was built from changed, disappeared or is newer. */
export function serverIsStale({ outDir = OUT_DIR } = {}) {
  let built = Infinity;
  for (const name of [...Object.keys(ENTRIES), META]) {
    const file = path.join(outDir, name === META ? META : `${name}.js`);
    if (!fs.existsSync(file)) return true;
    built = Math.min(built, fs.statSync(file).mtimeMs);
  }
  const { inputs } = JSON.parse(fs.readFileSync(path.join(outDir, META), 'utf8'));
  for (const input of [...inputs, 'package-lock.json', 'scripts/build-server.js']) {
    const file = path.join(root, input);
    if (!fs.existsSync(file) || fs.statSync(file).mtimeMs > built) return true;
  }
  return false;
}

// `node scripts/build-server.js [--outdir DIR]`
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--outdir');
  const outDir = i > 0 ? path.resolve(process.argv[i + 1]) : OUT_DIR;
  await buildServer({ outDir });
  console.log(`Server compiled to ${path.relative(process.cwd(), outDir)}/`);
}
