import { CompiledQuery, type Compilable } from 'kysely';
import { schemaOf, type Executor } from './database';

/** Stands for the call's n-th value while the query is built the first time. */
class Slot {
  constructor(readonly n: number) {}
}

interface Compiled {
  sql: string;
  /** For each parameter of the SQL: the call's value it takes, or null for one the query fixes. */
  slots: readonly (number | null)[];
  fixed: readonly unknown[];
}

/**
 * A query that Kysely builds and compiles once per kind of database; each call then runs that SQL with
 * its own values. For the statements every booking runs: building and compiling a query costs Kysely
 * more than SQLite takes to run it. `build` must hand each value to Kysely as it is, as one value (the
 * right side of a comparison, a column's value, a `${}` of sql``): never a list, never tested or
 * computed, so that the SQL cannot depend on it. A value that does not reach the SQL as a parameter of
 * its own is refused at the first call.
 */
export function prepared<A extends unknown[], R>(build: (db: Executor, ...values: A) => Compilable<R>) {
  const byKind = new Map<unknown, Compiled>();
  return async (db: Executor, ...values: A): Promise<R[]> => {
    // Per kind of database and studio schema: the SQL names the schema.
    const adapter = db.getExecutor().adapter.constructor;
    const schema = schemaOf(db);
    const kind = schema === undefined ? adapter : `${adapter.name}/${schema}`;
    let c = byKind.get(kind);
    if (!c) {
      const query = build(db, ...(values.map((_, n) => new Slot(n)) as A)).compile();
      const slots = query.parameters.map((p) => (p instanceof Slot ? p.n : null));
      for (let n = 0; n < values.length; n++)
        if (!slots.includes(n)) throw new Error(`prepared: value ${n} is not a parameter of ${query.sql}`);
      c = { sql: query.sql, slots, fixed: query.parameters };
      byKind.set(kind, c);
    }
    const { slots, fixed } = c;
    const parameters = slots.map((n, i) => (n === null ? fixed[i] : values[n]));
    return (await db.executeQuery<R>(CompiledQuery.raw(c.sql, parameters))).rows;
  };
}
