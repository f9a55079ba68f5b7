import type { FastifyInstance } from 'fastify';
import { utilsApi } from '../../contract/endpoints/utils';
import { ping } from '../../db/repositories/health';
import { HttpError } from '../http-error';
import type { RouteDeps } from './deps';
import { route } from '../route';

/** A database that has not answered by then counts as unreachable. */
const READY_TIMEOUT_MS = 1000;
const DRAINING = 'Сервер останавливается: запросы принимают другие экземпляры';
const NO_DATABASE = 'База данных недоступна';

/** Their answer is a few bytes, never compressed: the compression plugin's work on a reply (the first one
 * loads the fetch API, to look for a Response) is skipped, so readiness answers as soon as the server listens. */
const UNCOMPRESSED = { compress: false } as const;

export default async function utilsRoutes(app: FastifyInstance, { database, lifecycle }: RouteDeps) {
  route(app, utilsApi.healthCheck, async () => true, {}, UNCOMPRESSED);

  // What a load balancer asks before sending a request here: 503 while this instance drains (SIGTERM)
  // or its database does not answer, so requests go to another instance.
  route(
    app,
    utilsApi.ready,
    async () => {
      if (lifecycle.draining) throw new HttpError(503, DRAINING);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), READY_TIMEOUT_MS)));
      const answer = await Promise.race([ping(database.db).then(() => 'ok' as const), late])
        .catch(() => 'failed' as const)
        .finally(() => clearTimeout(timer));
      if (answer !== 'ok') throw new HttpError(503, NO_DATABASE);
      if (lifecycle.draining) throw new HttpError(503, DRAINING);
      return true;
    },
    {},
    UNCOMPRESSED,
  );
}
