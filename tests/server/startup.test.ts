import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Black-box: the compiled server and scripts of a copy of this working tree (a fresh clone after
// `npm install`: node_modules linked, no dist/, no .env), started as an operator starts them.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SECRET = 'startup-test-secret-key-0123456789abcdef';
let tmp: string;
let clone: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-startup-'));
  clone = path.join(tmp, 'clone');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).split('\0');
  for (const file of files.filter(Boolean)) {
    const from = path.join(ROOT, file);
    if (!fs.existsSync(from) || fs.statSync(from).isDirectory()) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    fs.copyFileSync(from, path.join(clone, file));
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
  const build = spawnSync(process.execPath, ['scripts/build-server.js'], { cwd: clone, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
}, 120_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Only what the test gives: nothing from the developer's shell or .env leaks in. */
const envOf = (vars: Record<string, string>) => ({
  PATH: process.env.PATH ?? '',
  HOME: tmp,
  npm_config_update_notifier: 'false',
  DATA_DIR: path.join(tmp, 'data'),
  ...vars,
});

let dbCount = 0;
const freshSqlite = () => `sqlite:${path.join(tmp, `db-${++dbCount}`, 'app.db')}`;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a command in the clone to its end. */
function run(
  args: string[],
  vars: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(args[0], args.slice(1), { cwd: clone, env: envOf(vars) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a long-running command in the clone (own process group) and waits for the health check. */
async function serve(args: string[], vars: Record<string, string>, timeoutMs = 30_000) {
  const port = Number(vars.PORT);
  const child = spawn(args[0], args.slice(1), { cwd: clone, env: envOf(vars), detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}:\n${stdout}\n${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/utils/health-check/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, url: `http://127.0.0.1:${port}`, output: () => ({ stdout, stderr }) };
    await new Promise((r) => setTimeout(r, 50));
  }
  stop(child);
  throw new Error(`no health-check answer within ${timeoutMs} ms:\n${stdout}\n${stderr}`);
}

function stop(child: ChildProcess) {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

const NO_STACK = /^\s+at /m;

describe('bad configuration: one line per problem (variable, value, what is expected), no stack, exit 1', () => {
  it('PORT=abc and DATABASE_URL=nonsense', async () => {
    const r = await run([process.execPath, 'dist/server/main.js'], { PORT: 'abc', DATABASE_URL: 'nonsense' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ {2}PORT=abc: expected a port number from 0 to 65535$/m);
    expect(r.stderr).toMatch(
      /^ {2}DATABASE_URL=nonsense: expected sqlite:<file> .* or postgres:\/\/user:password@host:5432\/database$/m,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(3); // a heading and the two problems
    expect(r.stdout + r.stderr).not.toMatch(NO_STACK);
  });

  it('secrets are masked', async () => {
    const r = await run([process.execPath, 'dist/server/main.js'], {
      NODE_ENV: 'production',
      SECRET_KEY: 'too-short-secret',
      BOT_TOKEN: 'not-a-bot-token',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ {2}SECRET_KEY=\*\*\*\* \(16 characters\): expected at least 32 characters/m);
    expect(r.stderr).toMatch(/^ {2}BOT_TOKEN=\*\*\*\* \(15 characters\): expected the token from @BotFather/m);
    expect(r.stderr).not.toMatch(/too-short-secret|not-a-bot-token/);
    expect(r.stdout + r.stderr).not.toMatch(NO_STACK);
  });

  it('an unreachable PostgreSQL, its password masked', async () => {
    const port = await freePort(); // nothing listens there
    const r = await run([process.execPath, 'dist/server/main.js'], {
      DATABASE_URL: `postgres://app:s3cret-pw@127.0.0.1:${port}/app`,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `  DATABASE_URL=postgres://app:****@127.0.0.1:${port}/app: nothing listens at 127.0.0.1:${port}; expected a running PostgreSQL server`,
    );
    expect(r.stdout + r.stderr).not.toContain('s3cret-pw');
    expect(r.stdout + r.stderr).not.toMatch(NO_STACK);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('a PostgreSQL refusing the password', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.password = 'wrong-password-42';
    const r = await run([process.execPath, 'dist/server/main.js'], { DATABASE_URL: url.href });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^ {2}DATABASE_URL=postgres(ql)?:\/\/[^:]+:\*\*\*\*@.+: password authentication failed for user .+; expected a user name and password the server accepts$/m,
    );
    expect(r.stdout + r.stderr).not.toContain('wrong-password-42');
    expect(r.stdout + r.stderr).not.toMatch(NO_STACK);
  });

  it('a port already in use', async () => {
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as net.AddressInfo;
    try {
      const r = await run([process.execPath, 'dist/server/main.js'], {
        PORT: String(port),
        DATABASE_URL: freshSqlite(),
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`  PORT=${port}: 127.0.0.1:${port} is already in use; expected a free port`);
      expect(r.stdout + r.stderr).not.toMatch(NO_STACK);
    } finally {
      other.close();
    }
  });

  it('npm run backup without the SQLite folder', async () => {
    const missing = path.join(tmp, 'no-such-folder', 'app.db');
    const script = JSON.parse(fs.readFileSync(path.join(clone, 'package.json'), 'utf8')).scripts.backup as string;
    const r = await run(['sh', '-c', script], { DATABASE_URL: `sqlite:${missing}` });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `  DATABASE_URL=sqlite:${missing}: no folder ${path.dirname(missing)}; expected the SQLite file the server uses`,
    );
    expect(r.stdout + r.stderr).not.toMatch(NO_STACK);
  });
});

describe('PUBLIC_URL and logs', () => {
  it('production: PUBLIC_URL defaults to http://localhost:PORT (reset links, the login URL in the banner), a local PUBLIC_URL is warned about, logs are JSON', async () => {
    const port = await freePort();
    const s = await serve([process.execPath, 'dist/server/main.js'], {
      NODE_ENV: 'production',
      SECRET_KEY: SECRET,
      PORT: String(port),
      DATABASE_URL: freshSqlite(),
    });
    try {
      const res = await fetch(`${s.url}/api/v1/password-recovery/admin@example.com`, { method: 'POST' });
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      stop(s.child);
    }
    const lines = s.output().stdout.split('\n').filter(Boolean);
    const logs = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(lines.find((l) => l.startsWith('Listening on'))).toContain(`admin login http://localhost:${port}/login`);
    expect(logs.find((l) => l.level === 40 && l.msg.startsWith('PUBLIC_URL='))?.msg).toMatch(
      new RegExp(
        `^PUBLIC_URL=http://localhost:${port}: a local address in production; expected the public https address`,
      ),
    );
    expect(logs.find((l) => typeof l.text === 'string' && l.text.includes('reset-password'))?.text).toContain(
      `http://localhost:${port}/reset-password?token=`,
    );
    expect(logs.length).toBeGreaterThan(2);
  });

  it('development: readable log lines, not JSON', async () => {
    const port = await freePort();
    const s = await serve([process.execPath, 'dist/server/main.js'], {
      PORT: String(port),
      DATABASE_URL: freshSqlite(),
    });
    stop(s.child);
    const { stdout } = s.output();
    expect(stdout).toMatch(new RegExp(`INFO.*Server listening at http://127\\.0\\.0\\.1:${port}`));
    expect(stdout).not.toMatch(/^\{"level"/m);
  });
});

/** The processes of a process group, from /proc (Linux). */
function processGroup(pgid: number): Array<{ pid: number; cmdline: string }> {
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid)
        found.push({
          pid: Number(pid),
          cmdline: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim(),
        });
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

describe('npm start', () => {
  it.runIf(process.platform === 'linux')(
    'on a fresh clone: builds the bundles and the server, then runs compiled JavaScript with plain node (no TypeScript loader, no esbuild left running)',
    async () => {
      fs.rmSync(path.join(clone, 'dist'), { recursive: true, force: true });
      const port = await freePort();
      const s = await serve(
        ['npm', 'start'],
        { NODE_ENV: 'production', SECRET_KEY: SECRET, PORT: String(port), DATABASE_URL: freshSqlite() },
        120_000,
      );
      try {
        const page = await fetch(`${s.url}/login`);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toContain('text/html');
        for (const built of ['dist/webapp/index.html', 'dist/admin/index.html', 'dist/server/main.js'])
          expect(fs.existsSync(path.join(clone, built)), built).toBe(true);
        // npm, its shell, and the server: `node scripts/start.js`, nothing else.
        const processes = processGroup(s.child.pid!);
        expect(
          processes.filter((p) => /^\S*node scripts\/start\.js$/.test(p.cmdline)),
          JSON.stringify(processes),
        ).toHaveLength(1);
        expect(
          processes.filter((p) => /tsx|esbuild|vite/.test(p.cmdline)),
          JSON.stringify(processes),
        ).toEqual([]);
      } finally {
        stop(s.child);
      }
    },
    180_000,
  );

  it.runIf(process.platform === 'linux')(
    'two at once on a fresh clone: one builds while the other waits for it, both serve; an unchanged checkout then builds nothing, a changed source only the server',
    async () => {
      fs.rmSync(path.join(clone, 'dist'), { recursive: true, force: true });
      const vars = async () => ({
        NODE_ENV: 'production',
        SECRET_KEY: SECRET,
        PORT: String(await freePort()),
        DATABASE_URL: freshSqlite(),
      });
      const [a, b] = await Promise.all([
        serve(['npm', 'start'], await vars(), 150_000),
        serve(['npm', 'start'], await vars(), 150_000),
      ]);
      const printed = [a, b].map((s) => s.output().stdout).join('\n');
      try {
        for (const s of [a, b]) {
          expect((await fetch(`${s.url}/login`)).status).toBe(200);
          expect((await fetch(`${s.url}/api/v1/utils/ready`)).status).toBe(200);
        }
      } finally {
        stop(a.child);
        stop(b.child);
      }
      expect(printed.match(/^Building the web bundles…$/gm), printed).toHaveLength(1);
      expect(printed.match(/^Compiling the server…$/gm), printed).toHaveLength(1);
      expect(printed.match(/^Waiting for process \d+, which is building/gm), printed).toHaveLength(1);
      // Nothing of the builds is left beside what they built.
      expect(fs.readdirSync(clone).filter((f) => f.startsWith('.build') || f.startsWith('.dist-building'))).toEqual([]);
      expect(fs.readdirSync(path.join(clone, 'dist')).sort()).toEqual(['admin', 'assets', 'server', 'webapp']);

      const built = () =>
        Object.fromEntries(
          ['dist/server/main.js', 'dist/server/meta.json', 'dist/webapp/index.html', 'dist/admin/index.html'].map(
            (f) => [f, fs.statSync(path.join(clone, f)).mtimeMs],
          ),
        );
      const before = built();
      const again = await serve(['npm', 'start'], await vars());
      stop(again.child);
      expect(again.output().stdout).not.toMatch(/Building|Compiling|Waiting/);
      expect(built()).toEqual(before);

      // A server source saved later, and a lock left by a build that was killed: the server alone is rebuilt.
      const gone = spawnSync(process.execPath, ['-e', '0']).pid;
      fs.writeFileSync(path.join(clone, '.build.lock'), String(gone));
      fs.utimesSync(path.join(clone, 'server/app.ts'), new Date(), new Date());
      const changed = await serve(['npm', 'start'], await vars(), 60_000);
      stop(changed.child);
      expect(changed.output().stdout).toMatch(/^Compiling the server…$/m);
      expect(changed.output().stdout).not.toMatch(/Building|Waiting/);
      const after = built();
      expect(after['dist/server/main.js']).toBeGreaterThan(before['dist/server/main.js']);
      expect(after['dist/webapp/index.html']).toBe(before['dist/webapp/index.html']);
      expect(fs.existsSync(path.join(clone, '.build.lock'))).toBe(false);
    },
    300_000,
  );
});
