// Compiles the server and its production scripts to plain JavaScript in dist/server/, so
// production runs `node` without a TypeScript loader (less memory, faster start).
// `node scripts/build-server.js` (part of `npm run build`); scripts/start.js calls it when stale.
// Plain JavaScript on purpose: it must run before anything is compiled.
// A build is written to a folder beside its destination and renamed into place when complete, so a
// process starting meanwhile finds the previous build or the new one, never half of one.
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
  'pino',
  'kysely',
  'zod',
  'fastify-type-provider-zod',
  'fastify',
  '@fastify/compress',
  '@fastify/cors',
  '@fastify/formbody',
  '@fastify/helmet',
  '@fastify/jwt',
  '@fastify/rate-limit',
  '@fastify/static',
]);

/**
 * What those packages load that stays in node_modules all the same: it is loaded only when reached,
 * never by this server at start (inject() in tests; the JSON-schema compilers, which the zod ones
 * replace), so the bundle need not carry it.
 */
const NOT_INLINED = new Set(['light-my-request', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler']);

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
 * Modules that an inlined package requires as it loads but uses only for what this server never does,
 * replaced for that package by a stand-in that loads them on first use: fastify's server module
 * requires https and http2 for servers of those kinds (~9 ms of start-up), @fastify/static requires
 * glob (and its dependencies) for `wildcard: false`, @fastify/rate-limit requires ip-address for a
 * client's IPv6 address, pino its transports (worker threads, which this server does not use), which
 * find their worker files in pino's folder and so are loaded from node_modules (`external`). `names`:
 * the stand-in's functions (called or constructed), for a module destructured as it is required;
 * `callable`: a module that is a function; otherwise the stand-in is a proxy of the module's properties.
 */
const LAZY = [
  { importer: 'pino/pino.js', spec: './lib/transport', external: 'pino/lib/transport.js', callable: true },
  { importer: 'pino/lib/tools.js', spec: './transport', external: 'pino/lib/transport.js', callable: true },
  { importer: 'fastify/lib/server.js', spec: 'node:https' },
  { importer: 'fastify/lib/server.js', spec: 'node:http2' },
  { importer: '@fastify/static/index.js', spec: 'glob', names: ['glob'] },
  { importer: '@fastify/rate-limit/index.js', spec: 'ip-address', names: ['Address6'] },
];

const lazyRequires = {
  name: 'lazy-requires',
  setup(build) {
    build.onResolve({ filter: /.*/ }, ({ path: spec, importer, kind, namespace }) => {
      // What a stand-in loads: from node_modules when the package wants its own files there.
      if (namespace === 'lazy' && LAZY.some((l) => l.external === spec)) return { path: spec, external: true };
      if (kind !== 'require-call') return undefined;
      const at = importer.split(path.sep).join('/');
      const i = LAZY.findIndex((l) => l.spec === spec && at.endsWith(`/node_modules/${l.importer}`));
      if (i < 0) return undefined;
      // A package (glob) is loaded from where the importer would find it; a built-in is external anyway.
      const target = LAZY[i].external ?? (spec.startsWith('node:') ? spec : createRequire(importer).resolve(spec));
      return { path: `${spec}#${i}`, namespace: 'lazy', pluginData: { target, i } };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, ({ pluginData: { target, i } }) => {
      const load = `let loaded;\nconst load = () => (loaded ??= require(${JSON.stringify(target)}));\n`;
      const { names } = LAZY[i];
      return {
        contents: names
          ? load +
            names
              .map(
                (n) =>
                  `exports.${n} = function (...args) { const f = load().${n}; return new.target ? new f(...args) : f.apply(this, args); };`,
              )
              .join('\n')
          : LAZY[i].callable
            ? `${load}module.exports = new Proxy(function () {}, { apply: (_, self, args) => load().apply(self, args), get: (_, key) => load()[key] });`
            : `${load}module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });`,
        loader: 'js',
        resolveDir: root,
      };
    });
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

/**
 * What esbuild lists as inputs besides files: modules of a plugin's namespace (`empty:zod-locales`,
 * `require:pino`). No file on disk stands for them, so they can never make a build stale.
 */
const isVirtual = (input) => /^[a-z][\w-]+:/i.test(input);

/** Whether process `pid` runs (this user's or another's). */
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/** Inputs that are no module but change the build all the same. */
const BUILD_INPUTS = ['package-lock.json', 'tsconfig.json', 'scripts/build-server.js'];

/**
 * Moves folder `from` to `to`, replacing whatever is there. rename() replaces only an empty folder,
 * so a previous build is first moved aside (and then deleted): for that instant `to` is missing,
 * which a reader of it checks under the build lock (withBuildLock).
 */
export function replaceFolder(from, to) {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(from, to);
      return;
    } catch (err) {
      if (!['ENOTEMPTY', 'EEXIST', 'EPERM', 'EISDIR'].includes(err.code) || attempt >= 5) throw err;
    }
    const aside = `${from}.old`;
    try {
      fs.renameSync(to, aside);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    fs.rmSync(aside, { recursive: true, force: true });
  }
}

/**
 * A folder beside `dir` (the same file system, so it can be renamed into place) for one build of this
 * process; what builds of processes that are gone left there (killed midway) is deleted.
 */
export function scratchFolder(dir) {
  const parent = path.dirname(dir);
  const prefix = `.${path.basename(dir)}-building-`;
  fs.mkdirSync(parent, { recursive: true });
  for (const name of fs.readdirSync(parent)) {
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    if (name.startsWith(prefix) && (pid === process.pid || !alive(pid)))
      fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  const scratch = path.join(parent, `${prefix}${process.pid}`);
  fs.mkdirSync(scratch);
  return scratch;
}

/** Bundles every entry into OUT_DIR and records its inputs (meta.json) for the staleness check. */
export async function buildServer({ outDir = OUT_DIR } = {}) {
  const esbuild = await import('esbuild');
  // Before esbuild reads anything: a source saved during the build is newer than the build.
  const startedAt = Date.now();
  // Beside the destination, so the relative paths of the source maps are those of the destination.
  const scratch = scratchFolder(outDir);
  try {
    // stop(): esbuild's helper process would otherwise live as long as the server started after the build.
    const result = await esbuild
      .build({
        absWorkingDir: root,
        entryPoints: ENTRIES,
        outdir: scratch,
        bundle: true,
        // A dynamic import() becomes its own file, loaded only when reached (the bot without BOT_TOKEN is never loaded).
        splitting: true,
        chunkNames: 'chunks/[name]-[hash]',
        platform: 'node',
        format: 'esm',
        target: 'node20',
        plugins: [lazyRequires, noZodLocales, packages],
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
    const files = Object.keys(result.metafile.inputs).filter((f) => !isVirtual(f));
    // An inlined module that looks for its own files would look next to the bundle (and __dirname does not exist in it).
    const selfReading = files.filter(
      (f) =>
        f.includes('node_modules/') && /\b__(dirname|filename)\b/.test(fs.readFileSync(path.resolve(root, f), 'utf8')),
    );
    if (selfReading.length > 0)
      throw new Error(
        `inlined modules that read their own files: ${selfReading.join(', ')}; keep their package out of the bundle`,
      );
    const inputs = files.filter((f) => !f.startsWith('node_modules/'));
    fs.writeFileSync(path.join(scratch, META), JSON.stringify({ startedAt, inputs }, null, 1));
    replaceFolder(scratch, outDir);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * True when a bundle is missing or any file it was built from changed, disappeared or is newer than
 * the build (its start). Virtual inputs are no files and are not looked for.
 */
export function serverIsStale({ outDir = OUT_DIR } = {}) {
  let meta;
  try {
    for (const name of Object.keys(ENTRIES)) fs.statSync(path.join(outDir, `${name}.js`));
    meta = JSON.parse(fs.readFileSync(path.join(outDir, META), 'utf8'));
  } catch {
    return true; // missing, or being replaced right now
  }
  if (typeof meta.startedAt !== 'number' || !Array.isArray(meta.inputs)) return true;
  for (const input of [...meta.inputs.filter((f) => !isVirtual(f)), ...BUILD_INPUTS]) {
    let mtime;
    try {
      mtime = fs.statSync(path.join(root, input)).mtimeMs;
    } catch {
      return true;
    }
    if (mtime > meta.startedAt) return true;
  }
  return false;
}

/** The lock that `npm start` (and the bench) hold while they build: one build at a time per checkout. */
export const BUILD_LOCK = path.join(root, '.build.lock');

/**
 * Runs `build` while holding `lockFile`, a file created exclusively with this process's id in it.
 * While another live process holds it, waits (saying so once) and then runs `build`, which finds that
 * process's result fresh and builds nothing. A lock left by a process that is gone (a build killed
 * midway) is moved aside and deleted, checked by the id inside, so a lock just taken by a third
 * process is put back rather than lost. Should two builds still overlap, each renames a complete
 * build into place.
 */
export async function withBuildLock(build, { lockFile = BUILD_LOCK, log = console.log, timeoutMs = 600_000 } = {}) {
  const waitingSince = Date.now();
  let told = false;
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let holder = NaN;
    try {
      holder = Number.parseInt(fs.readFileSync(lockFile, 'utf8'), 10);
    } catch {
      continue; // released meanwhile
    }
    // An empty file is a lock being written: its holder is alive.
    if (Number.isInteger(holder) && holder > 0 && !alive(holder)) {
      const aside = `${lockFile}.${process.pid}`;
      try {
        fs.renameSync(lockFile, aside);
      } catch {
        continue; // another process took it over first
      }
      if (fs.readFileSync(aside, 'utf8').trim() !== String(holder))
        try {
          fs.linkSync(aside, lockFile);
        } catch {
          /* a newer lock is already there */
        }
      fs.rmSync(aside, { force: true });
      continue;
    }
    if (!told) {
      log(`Waiting for process ${Number.isInteger(holder) ? holder : '?'}, which is building (${lockFile})…`);
      told = true;
    }
    if (Date.now() - waitingSince > timeoutMs)
      throw new Error(`${lockFile}: still held by process ${holder} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    return await build();
  } finally {
    try {
      if (fs.readFileSync(lockFile, 'utf8') === String(process.pid)) fs.rmSync(lockFile);
    } catch {
      /* already gone */
    }
  }
}

/** Builds the server into OUT_DIR when it is stale, one process at a time (the bench, scripts/start.js). */
export async function ensureServer({ log = console.log } = {}) {
  if (!serverIsStale()) return false;
  return withBuildLock(
    async () => {
      if (!serverIsStale()) return false;
      log('Compiling the server…');
      await buildServer();
      return true;
    },
    { log },
  );
}

// `node scripts/build-server.js [--outdir DIR]`
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--outdir');
  const outDir = i > 0 ? path.resolve(process.argv[i + 1]) : OUT_DIR;
  await buildServer({ outDir });
  console.log(`Server compiled to ${path.relative(process.cwd(), outDir)}/`);
}
