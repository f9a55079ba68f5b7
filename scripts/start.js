// `npm start` (also `npm run migrate`, `npm run backup`): runs the compiled server, or another
// compiled entry named as the argument, with plain `node`. Whatever is missing or older than its
// sources is built first (the web bundles for the server only, then the server); an unchanged
// checkout builds nothing. Builds happen under one lock per checkout: a second `npm start` meanwhile
// waits for the first one's build and runs it. Each build is written beside its destination and
// renamed into place, so no process ever runs half of one. Plain JavaScript, so that nothing needs
// compiling before it runs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  ENTRIES,
  OUT_DIR,
  buildServer,
  replaceFolder,
  scratchFolder,
  serverIsStale,
  withBuildLock,
} from './build-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2] ?? 'main';
if (!(entry in ENTRIES)) {
  console.error(`Unknown entry "${entry}": expected one of ${Object.keys(ENTRIES).join(', ')}`);
  process.exit(1);
}

const at = (p) => path.join(root, p);
// What the web build reads (vite.config.ts imports vite.purge-css.ts) and what it writes.
const WEB_SOURCES = ['webapp', 'admin', 'contract', 'vite.config.ts', 'vite.purge-css.ts', 'package-lock.json'];
const WEB_OUTPUTS = ['dist/webapp/index.html', 'dist/admin/index.html'];
const WEB_DIST = at('dist');

function newestMtime(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((f) => newestMtime(path.join(p, f))));
}

function webIsStale() {
  if (entry !== 'main') return false;
  const built = Math.min(...WEB_OUTPUTS.map((o) => (fs.existsSync(at(o)) ? fs.statSync(at(o)).mtimeMs : 0)));
  return built < Math.max(...WEB_SOURCES.map((s) => newestMtime(at(s))));
}

/**
 * vite builds into a scratch folder; its folders then replace dist/'s one by one, the pages' last. The
 * pages are dated to the build's start, so a source saved while it ran makes the next start build again.
 */
function buildWeb() {
  console.log('Building the web bundles…');
  const startedAt = new Date();
  const scratch = scratchFolder(WEB_DIST);
  try {
    execFileSync(process.execPath, [at('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
      stdio: 'inherit',
      cwd: root,
      env: { ...process.env, BUILD_OUT: scratch, BUILD_ONLY: '' },
    });
    fs.mkdirSync(WEB_DIST, { recursive: true });
    const built = fs.readdirSync(scratch);
    const pages = built.filter((name) => WEB_OUTPUTS.some((o) => o.startsWith(`dist/${name}/`)));
    for (const output of WEB_OUTPUTS)
      fs.utimesSync(path.join(scratch, output.slice('dist/'.length)), startedAt, startedAt);
    for (const name of [...built.filter((n) => !pages.includes(n)), ...pages])
      replaceFolder(path.join(scratch, name), path.join(WEB_DIST, name));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (webIsStale() || serverIsStale()) {
  await withBuildLock(async () => {
    // Checked again under the lock: a start that waited finds the build of the one it waited for.
    if (webIsStale()) buildWeb();
    if (serverIsStale()) {
      console.log('Compiling the server…');
      await buildServer();
    }
  });
}

await import(pathToFileURL(path.join(OUT_DIR, `${entry}.js`)).href);
