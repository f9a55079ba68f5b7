// `npm start` (also `npm run migrate`, `npm run backup`): runs the compiled server, or another
// compiled entry named as the argument, with plain `node`. Whatever is missing or older than its
// sources is built first: the web bundles (for the server only), then the server, which a web build
// removes from dist/. Plain JavaScript, so that nothing needs compiling before it runs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ENTRIES, OUT_DIR, buildServer, serverIsStale } from './build-server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2] ?? 'main';
if (!(entry in ENTRIES)) {
  console.error(`Unknown entry "${entry}": expected one of ${Object.keys(ENTRIES).join(', ')}`);
  process.exit(1);
}

const WEB_SOURCES = ['webapp', 'admin', 'contract', 'vite.config.ts', 'package-lock.json'];
const WEB_OUTPUTS = ['dist/webapp/index.html', 'dist/admin/index.html'];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((f) => newestMtime(path.join(p, f))));
}

const at = (p) => path.join(root, p);
if (entry === 'main') {
  const built = Math.min(...WEB_OUTPUTS.map((o) => (fs.existsSync(at(o)) ? fs.statSync(at(o)).mtimeMs : 0)));
  if (built < Math.max(...WEB_SOURCES.map((s) => newestMtime(at(s))))) {
    console.log('Building the web bundles…');
    execFileSync(process.execPath, [at('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
      stdio: 'inherit',
      cwd: root,
    });
  }
}
if (serverIsStale()) {
  console.log('Compiling the server…');
  await buildServer();
}

await import(pathToFileURL(path.join(OUT_DIR, `${entry}.js`)).href);
