import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { ensureLocalCluster, pgVersion } from './second-cluster';

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
  ensureLocalCluster({ name: NAME, port: PORT, lock: LOCK, maxConnections: MAX_CONNECTIONS });
  if (((await maxConnections(url)) ?? 0) < MAX_CONNECTIONS)
    throw new Error(
      `The cluster ${version}/${NAME} runs but ${url} does not answer with ${MAX_CONNECTIONS} connections`,
    );
  return { url, started: true, stop: stop(true) };
}
