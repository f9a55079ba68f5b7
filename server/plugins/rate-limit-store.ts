import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Database } from '../../db/database';
import { hitRateLimit } from '../../db/repositories/rate-limits';

/**
 * @fastify/rate-limit's counters in the database, so a limit holds whichever instance answers: a
 * client rotating across three instances gets the limit once, not three times. Each route counts
 * apart (its method and path prefix the key), as the plugin's in-memory store does. Windows that
 * have run out are dropped by the scheduler's shared-state job.
 */
export function databaseRateLimitStore(database: Database): FastifyRateLimitStoreCtor {
  class DatabaseStore implements FastifyRateLimitStore {
    // The plugin constructs the store with its options (unused here); each route's store is a child.
    constructor(
      _options?: FastifyRateLimitOptions,
      private readonly prefix = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      windowMs: number,
    ) {
      const now = Date.now();
      hitRateLimit(database.db, `${this.prefix}${key}`, windowMs, now).then(
        ({ count, window_start }) => callback(null, { current: count, ttl: window_start + windowMs - now }),
        (err: Error) => callback(err),
      );
    }

    child(routeOptions: object) {
      // The plugin passes the route's merged limit options; `routeInfo` is the route (empty for createRateLimit).
      const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      return new DatabaseStore(undefined, route?.url ? `${String(route.method)} ${route.url}|` : '');
    }
  }
  return DatabaseStore;
}
