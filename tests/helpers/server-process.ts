import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/** The repository's root: the server processes run there. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
  /** What it printed so far (for failure messages). */
  output(): string;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * One real server instance in its own process, as an operator starts it: `node --import tsx
 * server/main.ts` by default (or `command`, e.g. the compiled `node dist/server/main.js`), configured
 * only by `env` (plus PATH and HOME), on a free port; resolves once its readiness answers 200.
 */
export async function startServerProcess(
  env: Record<string, string>,
  opts: { command?: string[]; cwd?: string; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const [cmd, ...args] = opts.command ?? [process.execPath, '--import', 'tsx', 'server/main.ts'];
  const child = spawn(cmd, args, {
    cwd: opts.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${out}`);
    const ready = await fetch(`${url}/api/v1/utils/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() - started > (opts.timeoutMs ?? 60_000)) {
      child.kill('SIGKILL');
      throw new Error(`no readiness within ${opts.timeoutMs ?? 60_000} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    child,
    exited,
    output: () => out,
    kill: (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}
