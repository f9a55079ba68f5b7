import type { Database } from '../../db/database';
import { listOpenSchedules } from '../../db/repositories/schedules';

/**
 * The anonymous schedule is the hottest read (every mini-app opening). Its JSON is built once and
 * reused until a booking or schedule change commits in this process (database.writes) or, for
 * changes made by another instance or outside the engine, for at most `ttlMs`.
 */
export function createPublicScheduleCache(database: Database, ttlMs = 1000) {
  let cached: { json: string; writes: number; at: number } | null = null;
  let building: Promise<string> | null = null;

  async function build(): Promise<string> {
    const writes = database.writes;
    const at = Date.now();
    const data = await listOpenSchedules(database.db, new Date(at).toISOString());
    const json = JSON.stringify({ data, count: data.length });
    cached = { json, writes, at };
    return json;
  }

  return {
    /** The response body of GET /schedule/public. */
    json(): Promise<string> {
      if (cached && cached.writes === database.writes && Date.now() - cached.at < ttlMs)
        return Promise.resolve(cached.json);
      // One query at a time however many requests arrive together.
      building ??= build().finally(() => (building = null));
      return building;
    },
  };
}
