import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

// `npm run dev`: the bundles rebuilt on every change (vite build --watch) and the server
// restarted on every change (tsx watch), the bot by long polling when BOT_TOKEN is set.
// Reload the page after a change; the server serves the fresh build.
const bin = (name: string) => path.resolve('node_modules/.bin', name);
const env = { ...process.env, BOT_MODE: process.env.BOT_MODE ?? 'polling' };
const children: ChildProcess[] = [
  spawn(bin('vite'), ['build', '--watch', '--mode', 'development', '--logLevel', 'warn'], { stdio: 'inherit', env }),
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/main.ts'], { stdio: 'inherit', env }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => code && code !== 0 && stop());
