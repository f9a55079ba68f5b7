import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import pg from 'pg';

/*
 * A second PostgreSQL server for the tests that move a studio between servers: TEST_SECOND_DATABASE_URL
 * when set, else a local cluster "second" of the installed PostgreSQL on port 5433, created and started
 * when it is not there yet (pg_createcluster, as root: CI runs as root on a clean clone where only the
 * "main" cluster exists, if any runs). Idempotent, and serialised by a lock file, so two test runs on one
 * machine neither create it twice nor start it twice.
 */

const PORT = Number(process.env.TEST_SECOND_CLUSTER_PORT ?? 5433);
const NAME = 'second';
const LOCK = '/tmp/wb-test-second-cluster.lock';

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** The installed PostgreSQL's major version: that of an existing cluster, else the newest installed. */
export function pgVersion(): string {
  const clusters = execFileSync('pg_lsclusters', ['-h'], { encoding: 'utf8' }).trim();
  const first = clusters.split('\n').find((l) => l.trim() !== '');
  if (first) return first.split(/\s+/)[0];
  const installed = execFileSync('ls', ['/usr/lib/postgresql'], { encoding: 'utf8' }).trim().split(/\s+/);
  return installed.sort((a, b) => Number(a) - Number(b)).at(-1)!;
}

/**
 * A local cluster `name` of the installed PostgreSQL on `port`, created when absent and started when
 * down (as root), with `maxConnections` set (and the cluster restarted for it) when given; the
 * `postgres` user's password is `postgres`. One shell under a lock file, so two runs never do it twice.
 */
export function ensureLocalCluster(opts: { name: string; port: number; lock: string; maxConnections?: number }) {
  const { name, port } = opts;
  const version = pgVersion();
  const conf = opts.maxConnections
    ? `pg_conftool ${version} ${name} set max_connections ${opts.maxConnections}; restart=1`
    : 'restart=';
  const script = `
    set -e
    line=$(pg_lsclusters -h | awk '$1 == "${version}" && $2 == "${name}"')
    if [ -z "$line" ]; then
      pg_createcluster ${version} ${name} -p ${port} >/dev/null
      line=$(pg_lsclusters -h | awk '$1 == "${version}" && $2 == "${name}"')
    fi
    actual=$(echo "$line" | awk '{print $3}')
    if [ "$actual" != "${port}" ]; then echo "cluster ${version}/${name} exists on port $actual, not ${port}" >&2; exit 3; fi
    ${conf}
    case "$(echo "$line" | awk '{print $4}')" in
      online*) if [ -n "$restart" ]; then pg_ctlcluster ${version} ${name} restart; fi ;;
      *) pg_ctlcluster ${version} ${name} start ;;
    esac
    for _ in $(seq 1 60); do pg_isready -q -h 127.0.0.1 -p ${port} && break; sleep 0.5; done
    su postgres -c "psql -q -p ${port} -c \\"alter user postgres password 'postgres'\\"" >/dev/null
  `;
  execFileSync('flock', [opts.lock, 'sh', '-c', script], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
  return { version };
}

/** The URL of the second server's `postgres` database (user postgres, password postgres). */
export async function secondServerUrl(): Promise<string> {
  if (process.env.TEST_SECOND_DATABASE_URL) return process.env.TEST_SECOND_DATABASE_URL;
  const url = `postgres://postgres:postgres@127.0.0.1:${PORT}/postgres`;
  if (await reachable(url)) return url;
  if (process.getuid?.() !== 0)
    throw new Error(
      `No PostgreSQL on port ${PORT} and not root to create one: run as root, or set TEST_SECOND_DATABASE_URL`,
    );
  const { version } = ensureLocalCluster({ name: NAME, port: PORT, lock: LOCK });
  if (!(await reachable(url))) throw new Error(`The cluster ${version}/${NAME} runs but ${url} does not answer`);
  return url;
}

/** A new, empty database on the server at `serverUrl` for one test file, dropped by `drop()`. */
export async function freshDatabaseOn(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `wb_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
