import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { freshDatabaseUrl } from '../helpers/db';
import { ROOT, startServerProcess } from '../helpers/server-process';

// deploy/ cannot rot: Docker is not available here, so the image's start command (the Dockerfile's
// CMD and HEALTHCHECK in its WORKDIR, with its ENV and the compose file's environment) and the systemd
// unit's ExecStart run outside Docker, against a real build laid out as the Dockerfile copies it.

const DEPLOY = path.join(ROOT, 'deploy');
const read = (file: string) => fs.readFileSync(path.join(DEPLOY, file), 'utf8');

/** The Dockerfile's instructions (continuation lines joined), by stage. */
function dockerfile() {
  const lines = read('Dockerfile')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: string[][] = [];
  for (const line of lines) {
    if (/^FROM /i.test(line)) stages.push([]);
    stages.at(-1)!.push(line);
  }
  const final = stages.at(-1)!;
  const args = (name: string) => final.filter((l) => l.startsWith(`${name} `)).map((l) => l.slice(name.length + 1));
  const env: Record<string, string> = {};
  for (const line of args('ENV')) for (const [, k, v] of line.matchAll(/(\w+)=(\S+)/g)) env[k] = v;
  return {
    build: stages[0],
    workdir: args('WORKDIR').at(-1)!,
    env,
    copies: args('COPY').map((l) => l.split(/\s+/)),
    cmd: JSON.parse(args('CMD').at(-1)!) as string[],
    healthcheck: JSON.parse(
      args('HEALTHCHECK')
        .at(-1)!
        .replace(/^.*?CMD\s+/, ''),
    ) as string[],
    user: args('USER').at(-1),
  };
}

/** Compose's `${NAME}`, `${NAME:-default}` and `${NAME:?error}` filled from `values`. */
const interpolate = (s: string, values: Record<string, string>) =>
  s.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op: string | undefined, arg: string) => {
    if (values[name] !== undefined && values[name] !== '') return values[name];
    if (op === '?') throw new Error(`compose needs ${name}: ${arg}`);
    return op === '-' ? arg : '';
  });

const SECRETS = {
  POSTGRES_PASSWORD: 'compose-db-password',
  SECRET_KEY: 'deploy-test-secret-key-0123456789abcdef',
  DOMAIN: 'booking.example.com',
  BOT_TOKEN: '',
  METRICS_TOKEN: 'deploy-metrics-token-0123456789',
};

let tmp: string;
/** The image's WORKDIR, as the Dockerfile's COPY lines fill it from a real build. */
let image: string;
const drops: Array<() => Promise<void>> = [];

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-deploy-'));
  image = path.join(tmp, 'app');
  const d = dockerfile();
  // The build stage installs exactly the lock file and builds with the project's own command.
  expect(d.build.join('\n')).toMatch(/RUN npm ci\b/);
  expect(d.build.join('\n')).toMatch(/RUN npm run build\b/);
  fs.mkdirSync(image, { recursive: true });
  for (const [from, src, dest] of d.copies) {
    expect(from).toBe('--from=build');
    const name = path.relative('/app', src);
    const to = path.resolve(image, dest);
    if (name === 'package.json') fs.copyFileSync(path.join(ROOT, name), to);
    else if (name === 'node_modules') fs.symlinkSync(path.join(ROOT, 'node_modules'), to);
    else if (name === 'dist') {
      // `npm run build`'s server half (the web half is the browser suite's); same script, same output.
      const built = spawnSync(process.execPath, ['scripts/build-server.js', '--outdir', path.join(to, 'server')], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(built.status, built.stderr).toBe(0);
    } else throw new Error(`the Dockerfile copies ${src}: teach this test what a build puts there`);
  }
}, 120_000);

afterAll(async () => {
  for (const drop of drops) await drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function database(): Promise<string> {
  const fresh = await freshDatabaseUrl();
  drops.push(fresh.drop);
  return fresh.url;
}

/** Runs the healthcheck command as Docker would, in the container's directory and environment. */
const healthcheck = (command: string[], env: Record<string, string>) =>
  spawnSync(command[0] === 'node' ? process.execPath : command[0], command.slice(1), {
    cwd: image,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 5000,
  }).status;

describe('deploy/', () => {
  it('the files agree: the apps reach the compose database, Caddy balances both on readiness, the image runs as a user', () => {
    const compose = parseYaml(read('compose.yaml'), { merge: true }) as {
      services: Record<string, { environment?: Record<string, string>; image?: string }>;
    };
    const db = compose.services.db.environment!;
    const apps = Object.keys(compose.services).filter((s) => /^app\d+$/.test(s));
    expect(apps).toEqual(['app1', 'app2']);
    const caddyfile = read('Caddyfile');
    const port = dockerfile().env.PORT;
    for (const app of apps) {
      const url = new URL(interpolate(compose.services[app].environment!.DATABASE_URL, SECRETS));
      expect([url.username, url.password, url.hostname, url.pathname]).toEqual([
        db.POSTGRES_USER,
        interpolate(db.POSTGRES_PASSWORD, SECRETS),
        'db',
        `/${db.POSTGRES_DB}`,
      ]);
      expect(caddyfile).toContain(`${app}:${port}`);
    }
    expect(caddyfile).toMatch(/health_uri \/api\/v1\/utils\/ready\n/);
    expect(dockerfile().user).toBe('node');
  });

  it('the image’s CMD starts the compiled server with the compose environment: ready, healthy, metrics, drains on SIGTERM', async () => {
    const d = dockerfile();
    expect(d.cmd).toEqual(['node', 'dist/server/main.js']);
    const compose = parseYaml(read('compose.yaml'), { merge: true }) as {
      services: Record<string, { environment: Record<string, string> }>;
    };
    const env: Record<string, string> = { ...d.env };
    for (const [k, v] of Object.entries(compose.services.app1.environment)) env[k] = interpolate(String(v), SECRETS);
    // What only the container has: the compose network's database, the /data volume, all interfaces.
    Object.assign(env, { DATABASE_URL: await database(), DATA_DIR: path.join(tmp, 'data'), HOST: '127.0.0.1' });
    delete env.PORT; // a free one
    const started = performance.now();
    const s = await startServerProcess(env, { command: [process.execPath, ...d.cmd.slice(1)], cwd: image });
    try {
      expect(performance.now() - started).toBeLessThan(15_000);
      const port = new URL(s.url).port;
      expect(healthcheck(d.healthcheck, { ...env, PORT: port })).toBe(0);
      const metrics = await fetch(`${s.url}/metrics`, {
        headers: { authorization: `Bearer ${SECRETS.METRICS_TOKEN}` },
      });
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^outbox_pending_messages 0$/m);
      // Compose sends SIGTERM and waits stop_grace_period: readiness fails at once, the server exits 0 in time.
      s.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      expect(healthcheck(d.healthcheck, { ...env, PORT: port })).toBe(1);
      const stopped = performance.now();
      expect(await s.exited).toBe(0);
      expect(performance.now() - stopped).toBeLessThan(30_000);
    } finally {
      s.kill();
    }
  }, 60_000);

  it('the systemd unit’s ExecStart in its WorkingDirectory, with its Environment and an environment file', async () => {
    const unit = read('workshop-booking.service');
    const values = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]);
    const [exec, ...args] = values('ExecStart')[0].split(/\s+/);
    expect(path.basename(exec)).toBe('node');
    expect(args).toEqual(['dist/server/main.js']);
    const env = Object.fromEntries(values('Environment').map((kv) => kv.split(/=(.*)/s).slice(0, 2)));
    expect(values('EnvironmentFile')).toEqual(['/etc/workshop-booking.env']);
    // What /etc/workshop-booking.env holds (README); StateDirectory is DATA_DIR.
    Object.assign(env, {
      DATABASE_URL: await database(),
      SECRET_KEY: SECRETS.SECRET_KEY,
      PUBLIC_URL: 'https://booking.example.com',
      DATA_DIR: path.join(tmp, 'state'),
    });
    delete env.PORT;
    const s = await startServerProcess(env, { command: [process.execPath, ...args], cwd: image });
    s.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 60_000);
});
