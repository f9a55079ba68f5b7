import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// `npm start`: build the bundles when missing or older than their sources, then serve.
const SOURCES = ['webapp', 'admin', 'contract', 'vite.config.ts', 'package-lock.json'];
const OUTPUTS = ['dist/webapp/index.html', 'dist/admin/index.html'];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((f) => newestMtime(path.join(p, f))));
}

const built = Math.min(...OUTPUTS.map((o) => (fs.existsSync(o) ? fs.statSync(o).mtimeMs : 0)));
if (built < Math.max(...SOURCES.map(newestMtime))) {
  console.log('Building the web bundles…');
  execFileSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
}

await import('../server/main');
