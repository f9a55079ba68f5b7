// Compiles the server and its production scripts to plain JavaScript in dist/server/, so
// production runs `node` without a TypeScript loader (less memory, faster start).
// `node scripts/build-server.js` (part of `npm run build`); scripts/start.js calls it when stale.
// Plain JavaScript on purpose: it must run before anything is compiled.
// A build is written to a folder beside its destination and renamed into place when complete, so a
// process starting meanwhile finds the previous build or the new one, never half of one.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Entry points only: whatever they import is followed, so moving internal files needs no change here. */
export const ENTRIES = {
  main: 'server/main.ts',
  migrate: 'scripts/migrate.ts',
  backup: 'scripts/backup.ts',
  platform: 'scripts/platform.ts',
};
export const OUT_DIR = path.join(root, 'dist/server');
const META = 'meta.json';

/**
 * Pure-JavaScript packages loaded at start are copied into the vendor bundle (VENDOR), with the
 * packages they load: loading them file by file (resolving, reading and compiling each of ~400 small
 * modules) was the largest part of the start-up time (kysely ~140 ms, zod ~70 ms, fastify and its
 * plugins ~60 ms). The type provider comes along so that it and the contract share one copy of zod.
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
  '@fastify/jwt',
  '@fastify/rate-limit',
  '@fastify/static',
  'helmet',
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
  return isCommonJsFile(file);
}

function isCommonJsFile(file) {
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
 * `vendor`, in the server's build: collects the inlined packages it imports, each taken from the
 * vendor bundle (VENDOR); null in the vendor bundle's own build, where they are inlined.
 */
function packagesPlugin({ vendor }) {
  return {
    name: 'packages',
    setup(build) {
      const require = createRequire(path.join(root, 'package.json'));
      build.onResolve({ filter: /^[^./]/ }, ({ path: spec, importer, kind }) => {
        if (spec.startsWith('node:') || builtinModules.includes(spec)) return { path: spec, external: true };
        const name = spec
          .split('/')
          .slice(0, spec.startsWith('@') ? 2 : 1)
          .join('/');
        const fromPackage = importer.includes(`${path.sep}node_modules${path.sep}`);
        // The server's own code: an inlined package comes from the vendor bundle (see VENDOR).
        if (INLINE.has(name) && vendor && !fromPackage) {
          vendor.add(spec);
          return { path: spec, namespace: 'vendor' };
        }
        if (INLINE.has(name)) return undefined;
        // Only inlined packages are read from node_modules, so this is a dependency of one: inlined too,
        // unless it stays out and the copy the bundle finds from the project root is the one it needs.
        if (
          fromPackage &&
          (!NOT_INLINED.has(name) || packageDir(importer, name) !== packageDir(path.join(root, 'package.json'), name))
        )
          return undefined;
        if (!vendor) return { path: spec, external: true }; // CommonJS output: Node's require() as it is
        if (kind === 'import-statement' && isCommonJs(spec, require)) return { path: spec, namespace: 'require' };
        return { path: esmSpecifier(spec, require), external: true };
      });
      // A stand-in module whose require() stays in the bundle as a call to Node's require (see the banner).
      build.onLoad({ filter: /.*/, namespace: 'require' }, ({ path: spec }) => ({
        contents: `module.exports = require(${JSON.stringify(spec)});`,
        loader: 'js',
      }));
      build.onLoad({ filter: /.*/, namespace: 'vendor' }, ({ path: spec }) => ({
        contents: `module.exports = __vendor(${JSON.stringify(spec)});`,
        loader: 'js',
      }));
    },
  };
}

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

/**
 * Everything the entries import (the server's modules and the inlined packages, INLINE) forms one
 * CommonJS file, vendor.cjs, that vendor-loader.cjs compiles with V8's code cache (vendor.cjs.v8cache):
 * Node 20 keeps no compiled code between runs and cannot use a cache for ES modules, and compiling
 * ~2.5 MB of JavaScript on every start was a third of it. The entries stay ES modules (they await at
 * their top level, which CommonJS cannot); their imports are stand-ins that ask the loader, each
 * module evaluated when first asked for. The cache is made by starting the built server once
 * (trainCodeCache); one V8 refuses (another Node, other V8 flags) is ignored and the file compiled.
 */
const VENDOR = 'vendor.cjs';
const VENDOR_LOADER = 'vendor-loader.cjs';
const CODE_CACHE = `${VENDOR}.v8cache`;
const CACHE_OUT_VAR = 'VENDOR_CODE_CACHE_OUT';
const vendorLoader = `'use strict';
// Written by scripts/build-server.js: runs ${VENDOR} compiled with V8's code cache when there is one.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');
const file = path.join(__dirname, '${VENDOR}');
if (process.sourceMapsEnabled) {
  // node --enable-source-maps: Node's own loader, whose stack traces give the sources' lines (no cache).
  module.exports = require(file);
} else {
  let cachedData;
  try {
    cachedData = fs.readFileSync(path.join(__dirname, '${CODE_CACHE}'));
  } catch {
    // none: compiled as usual
  }
  const script = new vm.Script(require('node:module').wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData });
  const vendor = { exports: {} };
  script.runInThisContext()(vendor.exports, createRequire(file), vendor, file, __dirname);
  module.exports = vendor.exports;
  // The build's training start (trainCodeCache) asks for the cache of all that its start compiled.
  const out = process.env.${CACHE_OUT_VAR};
  if (out) process.once('exit', () => fs.writeFileSync(out, script.createCachedData()));
}
`;

/**
 * One vendored package as the server's code imported it: an ES module's namespace (resolved as an
 * import, as the server's bundle would), a CommonJS package's module.exports.
 */
const vendorSpecs = {
  name: 'vendor-specs',
  setup(build) {
    build.onResolve({ filter: /^vendor-spec:/ }, ({ path: p }) => ({
      path: p.slice('vendor-spec:'.length),
      namespace: 'vendor-spec',
    }));
    build.onLoad({ filter: /.*/, namespace: 'vendor-spec' }, async ({ path: spec }) => {
      const { path: file, errors } = await build.resolve(spec, { kind: 'import-statement', resolveDir: root });
      if (errors.length > 0) return { errors };
      const esm = !isCommonJsFile(file);
      return {
        contents: esm
          ? `import * as ns from ${JSON.stringify(spec)};\nexport { ns as exports };`
          : `exports.exports = require(${JSON.stringify(spec)});`,
        loader: 'js',
        resolveDir: root,
      };
    });
  },
};

/** What an entry imports of the server's own modules (statically or not) is asked of the vendor bundle. */
function entryImports(esbuild, vendored) {
  const entries = new Set(Object.values(ENTRIES).map((e) => path.join(root, e)));
  return {
    name: 'entry-imports',
    setup(build) {
      build.onResolve({ filter: /^\./ }, async ({ path: spec, importer, kind, resolveDir, pluginData }) => {
        if (!entries.has(importer) || pluginData === 'entry-imports') return undefined;
        const resolved = await build.resolve(spec, { kind, resolveDir, importer, pluginData: 'entry-imports' });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        const key = `./${path.relative(root, resolved.path).split(path.sep).join('/')}`;
        vendored.add(key);
        // An import() is given a namespace of the module's exports, whose names esbuild reads from it.
        return { path: key, namespace: kind === 'dynamic-import' ? 'vendor-import' : 'vendor' };
      });
      build.onLoad({ filter: /.*/, namespace: 'vendor-import' }, async ({ path: key }) => {
        const { metafile } = await esbuild.build({
          absWorkingDir: root,
          entryPoints: [key],
          outdir: 'unwritten',
          write: false,
          metafile: true,
          format: 'esm',
          logLevel: 'silent',
        });
        const names = Object.values(metafile.outputs).flatMap((o) => o.exports);
        const named = names.filter((n) => n !== 'default');
        return {
          contents: [
            `const m = __vendor(${JSON.stringify(key)});`,
            named.length > 0 ? `export const { ${named.join(', ')} } = m;` : '',
            names.includes('default') ? 'export default m.default;' : '',
          ].join('\n'),
          loader: 'js',
        };
      });
    },
  };
}

/** Bundles every entry into OUT_DIR and records its inputs (meta.json) for the staleness check. */
export async function buildServer({ outDir = OUT_DIR } = {}) {
  const esbuild = await import('esbuild');
  // Before esbuild reads anything: a source saved during the build is newer than the build.
  const startedAt = Date.now();
  // Beside the destination, so the relative paths of the source maps are those of the destination.
  const scratch = scratchFolder(outDir);
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    // Parsing and compiling is ~40% of the start-up's work; minified, there is a third less to parse.
    // Names stay, so a stack trace still reads; `node --enable-source-maps` gives its source lines.
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    logLevel: 'warning',
  };
  try {
    const vendored = new Set();
    // stop(): esbuild's helper process would otherwise live as long as the server started after the build.
    const [app, vendor] = await (async () => {
      const app = await esbuild.build({
        ...common,
        entryPoints: ENTRIES,
        outdir: scratch,
        // A dynamic import() becomes its own file, loaded only when reached (the bot without BOT_TOKEN is never loaded).
        splitting: true,
        chunkNames: 'chunks/[name]-[hash]',
        format: 'esm',
        plugins: [entryImports(esbuild, vendored), packagesPlugin({ vendor: vendored })],
        // The require() of the stand-ins above (an ES module has none of its own) and the vendor bundle's
        // packages, loaded with the first one asked for.
        banner: {
          js: [
            "import { createRequire as __createRequire } from 'node:module';",
            'const require = __createRequire(import.meta.url);',
            'let __vendorLoaded;',
            `const __vendor = (spec) => (__vendorLoaded ??= require('./${VENDOR_LOADER}'))[spec]();`,
          ].join('\n'),
        },
      });
      const specs = [...vendored].sort();
      const vendor = await esbuild.build({
        ...common,
        stdin: {
          // Each package is evaluated when first asked for, as a require() of it would be.
          contents: `module.exports = {\n${specs.map((spec) => `  ${JSON.stringify(spec)}: () => ${spec.startsWith('./') ? `require(${JSON.stringify(spec)})` : `require(${JSON.stringify(`vendor-spec:${spec}`)}).exports`},`).join('\n')}\n};`,
          resolveDir: root,
          sourcefile: 'vendor-entry.js',
        },
        outfile: path.join(scratch, VENDOR),
        format: 'cjs',
        // The server's modules, now CommonJS: import.meta.url is the bundle's, and an import() of a
        // package a require() (a script run from a code cache has no loader for import()).
        define: { 'import.meta.url': '__importMetaUrl' },
        banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
        supported: { 'dynamic-import': false },
        plugins: [vendorSpecs, lazyRequires, noZodLocales, packagesPlugin({ vendor: null })],
      });
      return [app, vendor];
    })().finally(() => esbuild.stop());
    const files = [...Object.keys(app.metafile.inputs), ...Object.keys(vendor.metafile.inputs)].filter(
      (f) => !isVirtual(f) && f !== 'vendor-entry.js',
    );
    // An inlined module that looks for its own files would look next to the bundle (__dirname is its folder).
    const selfReading = files.filter(
      (f) =>
        f.includes('node_modules/') && /\b__(dirname|filename)\b/.test(fs.readFileSync(path.resolve(root, f), 'utf8')),
    );
    if (selfReading.length > 0)
      throw new Error(
        `inlined modules that read their own files: ${selfReading.join(', ')}; keep their package out of the bundle`,
      );
    fs.writeFileSync(path.join(scratch, VENDOR_LOADER), vendorLoader);
    // The chunks ask for it beside them too (one banner for every file).
    if (fs.existsSync(path.join(scratch, 'chunks')))
      fs.writeFileSync(
        path.join(scratch, 'chunks', VENDOR_LOADER),
        `module.exports = require('../${VENDOR_LOADER}');\n`,
      );
    const inputs = files.filter((f) => !f.startsWith('node_modules/'));
    fs.writeFileSync(path.join(scratch, META), JSON.stringify({ startedAt, inputs }, null, 1));
    replaceFolder(scratch, outDir);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  // In place: V8 keeps the file name of the start that made the cache (in stack traces).
  await trainCodeCache(outDir);
}

/**
 * Starts the built server once (plain node, a fresh SQLite in a scratch folder, no .env) until its
 * readiness answers, then stops it: its vendor loader then writes the code cache of everything the
 * start compiled, the first requests' code included (a cache of the packages' loading alone saved a
 * third as much). Without a cache (the server does not start here) the build is still whole.
 */
async function trainCodeCache(dir) {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-code-cache-'));
  const port = await new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, [path.join(dir, 'main.js')], {
    cwd: data,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      SECRET_KEY: crypto.randomBytes(32).toString('hex'),
      FIRST_SUPERUSER_PASSWORD: crypto.randomBytes(16).toString('hex'),
      DATABASE_URL: `sqlite:${path.join(data, 'app.db')}`,
      DATA_DIR: data,
      DIST_DIR: data,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      SHUTDOWN_DRAIN_S: '0',
      [CACHE_OUT_VAR]: path.join(dir, `${CODE_CACHE}.${process.pid}`),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (const started = Date.now(); child.exitCode === null && Date.now() - started < 30_000;) {
      const ready = await fetch(`http://127.0.0.1:${port}/api/v1/utils/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(data, { recursive: true, force: true });
  }
  try {
    fs.renameSync(path.join(dir, `${CODE_CACHE}.${process.pid}`), path.join(dir, CODE_CACHE));
  } catch {
    console.warn(`No code cache for ${VENDOR}: the built server did not start here${stderr ? `:\n${stderr}` : ''}`);
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
