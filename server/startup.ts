import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { pino, type Logger } from 'pino';
import { ConfigError, configWarnings, loadConfig, shown, type Config } from './config';
import { createDb, type Database } from '../db/database';
import { migrateToLatest } from '../db/migrate';

// The start-up steps that fail because of the machine or the configuration (bad values, an
// unreachable database, a busy port). Such a failure is the operator's to fix, so it prints one
// line per problem (variable, value with secrets masked, what is expected) and exits 1, never a stack.

/** Prints the problems, one a line, and exits with code 1. */
export function exitWith(problems: string[]): never {
  console.error(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}

export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) exitWith(err.problems);
    throw err;
  }
}

/** JSON lines in production (for a log collector); readable lines otherwise. Starts with the configuration's warnings. */
export async function createLogger(config: Config): Promise<Logger> {
  const options = { level: config.logLevel, redact: ['req.headers.authorization'] };
  // Loaded only in development: production never needs it.
  const pretty = config.env === 'production' ? undefined : (await import('pino-pretty')).default;
  const log = pretty
    ? pino(options, pretty({ sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }))
    : pino(options);
  for (const warning of configWarnings(config)) log.warn(warning);
  return log;
}

const CONNECT_TIMEOUT_MS = 10_000;

/** Opens the configured database, checks that it answers, and migrates it. */
export async function openDatabase(config: Config): Promise<Database> {
  let database: Database;
  try {
    database = createDb(config.databaseUrl);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })),
        CONNECT_TIMEOUT_MS,
      );
    });
    await Promise.race([sql`select 1`.execute(database.db), timeout]).finally(() => clearTimeout(timer));
  } catch (err) {
    exitWith([databaseProblem(config.databaseUrl, err)]);
  }
  // Past the connection check, a failure is a bug, not the configuration: it keeps its stack.
  await migrateToLatest(database.db);
  return database;
}

/** One line on why the database cannot be opened. */
export function databaseProblem(url: string, err: unknown): string {
  const e = err as NodeJS.ErrnoException & { errors?: NodeJS.ErrnoException[] };
  const code = e.code ?? e.errors?.[0]?.code;
  const subject = shown('DATABASE_URL', url);
  if (url.startsWith('sqlite:')) {
    const file = path.resolve(url.slice('sqlite:'.length));
    if (code === 'SQLITE_NOTADB')
      return `${subject}: ${file} is not an SQLite database; expected an SQLite file or a path for a new one`;
    return `${subject}: cannot open ${file} (${code ?? e.message}); expected a file path in a writable folder`;
  }
  const u = new URL(url);
  const where = `${u.hostname}:${u.port || 5432}`;
  switch (code) {
    case 'ECONNREFUSED':
      return `${subject}: nothing listens at ${where}; expected a running PostgreSQL server`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${subject}: unknown host ${u.hostname}; expected the host name of a PostgreSQL server`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${subject}: no answer from ${where}; expected a reachable PostgreSQL server`;
    case '28P01':
    case '28000':
      return `${subject}: ${e.message}; expected a user name and password the server accepts`;
    case '3D000':
      return `${subject}: ${e.message}; expected an existing database (createdb ${decodeURIComponent(u.pathname.slice(1))})`;
    default:
      return `${subject}: cannot connect (${[code, e.message].filter(Boolean).join(': ')}); expected a reachable PostgreSQL server`;
  }
}

/** Listens on HOST:PORT and prints where the server and its pages are. */
export async function listen(app: FastifyInstance, config: Config): Promise<void> {
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const where = `${config.host}:${config.port}`;
    const port = shown('PORT', String(config.port));
    const host = shown('HOST', config.host);
    const problem = {
      EADDRINUSE: `${port}: ${where} is already in use; expected a free port (stop the other server or choose another PORT)`,
      EACCES: `${port}: not allowed to listen on ${where}; expected a port above 1023, or the right to bind low ports`,
      EADDRNOTAVAIL: `${host}: not an address of this machine; expected 127.0.0.1, 0.0.0.0 or one of its addresses`,
      ENOTFOUND: `${host}: unknown host name; expected 127.0.0.1, 0.0.0.0 or one of this machine's addresses`,
      EAI_AGAIN: `${host}: unknown host name; expected 127.0.0.1, 0.0.0.0 or one of this machine's addresses`,
    }[code ?? ''];
    if (!problem) throw err;
    exitWith([problem]);
  }
  const url = config.publicUrl;
  console.log(
    `Listening on http://${config.host}:${config.port}: admin login ${url}/login, mini-app ${url}/apply, API docs ${url}/docs`,
  );
}
