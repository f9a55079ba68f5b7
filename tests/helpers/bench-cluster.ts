import { execFileSync } from 'node:child_process';
import pg from 'pg';

/*
 * A local PostgreSQL cluster for the platform benchmark when the default server cannot give it the
 * connections several platform processes open (each pools 10 + PLATFORM_LIVE_STUDIOS connections to its
 * studios and 10 to its store): cluster "bench" of the installed PostgreSQL on port 5434
 * (BENCH_CLUSTER_PORT) with max_connections 500, created when absent and started when down
 * (pg_createcluster, as root, as tests/helpers/second-cluster.ts does for a second server), under a
 * lock file so two runs neither create nor start it twice. The same machine and version as the default
 * server: only the connections differ. stop() stops it again when this call started it.
 */

const PORT = Number(process.env.BENCH_CLUSTER_PORT ?? 5434);
const NAME = 'bench';
const MAX_CONNECTIONS = 500;
const LOCK = '/tmp/wb-bench-cluster.lock';

async function maxConnections(url: string): Promise<number | null> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    return Number((await c.query<{ max_connections: string }>('show max_connections')).rows[0].max_connections);
  } catch {
    return null;
  } finally {
    await c.end().catch(() => {});
  }
}

function pgVersion(): string {
  const clusters = execFileSync('pg_lsclusters', ['-h'], { encoding: 'utf8' }).trim();
  const first = clusters.split('\n').find((l) => l.trim() !== '');
  if (first) return first.split(/\s+/)[0];
  const installed = execFileSync('ls', ['/usr/lib/postgresql'], { encoding: 'utf8' }).trim().split(/\s+/);
  return installed.sort((a, b) => Number(a) - Number(b)).at(-1)!;
}

/** The bench cluster's `postgres` database (user postgres, password postgres), and how to stop it if this started it. */
export async function benchClusterUrl(): Promise<{ url: string; started: boolean; stop(): void }> {
  const url = `postgres://postgres:postgres@127.0.0.1:${PORT}/postgres`;
  const version = (() => {
    try {
      return pgVersion();
    } catch {
      return null;
    }
  })();
  const stop = (started: boolean) => () => {
    if (started && version) execFileSync('pg_ctlcluster', [version, NAME, 'stop'], { stdio: 'ignore' });
  };
  if (((await maxConnections(url)) ?? 0) >= MAX_CONNECTIONS) return { url, started: false, stop: stop(false) };
  if (process.getuid?.() !== 0 || !version)
    throw new Error(`No PostgreSQL with ${MAX_CONNECTIONS} connections on port ${PORT} and not root to create one`);
  const script = `
    set -e
    line=$(pg_lsclusters -h | awk '$1 == "${version}" && $2 == "${NAME}"')
    if [ -z "$line" ]; then
      pg_createcluster ${version} ${NAME} -p ${PORT} -o max_connections=${MAX_CONNECTIONS} >/dev/null
      line=$(pg_lsclusters -h | awk '$1 == "${version}" && $2 == "${NAME}"')
    fi
    port=$(echo "$line" | awk '{print $3}')
    if [ "$port" != "${PORT}" ]; then echo "cluster ${version}/${NAME} exists on port $port, not ${PORT}" >&2; exit 3; fi
    pg_conftool ${version} ${NAME} set max_connections ${MAX_CONNECTIONS}
    case "$(echo "$line" | awk '{print $4}')" in online*) pg_ctlcluster ${version} ${NAME} restart ;; *) pg_ctlcluster ${version} ${NAME} start ;; esac
    for _ in $(seq 1 60); do pg_isready -q -h 127.0.0.1 -p ${PORT} && break; sleep 0.5; done
    su postgres -c "psql -q -p ${PORT} -c \\"alter user postgres password 'postgres'\\"" >/dev/null
  `;
  execFileSync('flock', [LOCK, 'sh', '-c', script], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
  if (((await maxConnections(url)) ?? 0) < MAX_CONNECTIONS)
    throw new Error(`The cluster ${version}/${NAME} runs but ${url} does not answer with ${MAX_CONNECTIONS} connections`);
  return { url, started: true, stop: stop(true) };
}
