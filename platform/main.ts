import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../server/config';
import { listen } from '../server/startup';
import { createSendGate } from '../bot/delivery/send-gate';
import { buildPlatform, migratePlatform } from './server';
import { createWaker } from './wakes';

/*
 * The platform's process (PLATFORM=true): the HTTP front for every studio, the studios' periodic jobs by
 * their due index, every studio behind the code's version migrated after start, and the platform's own bot.
 */

/** Sends per second of every studio's bot together, from this instance: our own server's cap. */
export const SEND_CAP_PER_SECOND = 600;

export async function runPlatform(config: Config, log: FastifyBaseLogger): Promise<void> {
  const sendGate = createSendGate(SEND_CAP_PER_SECOND);
  const platform = await buildPlatform({ config, log, host: { telegramOptions: { sendGate } } });
  const waker = createWaker({
    store: platform.store,
    host: platform.host,
    log,
    tickMs: config.schedulerTickMs,
    idleWakeMs: config.platform.idleWakeMs,
  });

  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      log.info({ signal }, 'platform: shutting down');
      waker
        .stop()
        .then(() => platform.app.close())
        .then(
          () => process.exit(0),
          (err: unknown) => {
            log.error({ err }, 'platform: shutdown failed');
            process.exit(1);
          },
        );
    });
  }

  await listen(platform.app, config);
  // A deploy: the studios behind are migrated one after another while the others are served; a studio
  // asked for meanwhile is migrated on the spot (it is never served at an older version).
  void migratePlatform(platform, config).then(
    ({ migrated, failed }) => {
      if (migrated > 0) log.info({ migrated }, 'platform: studios migrated');
      for (const f of failed) log.error(f, 'platform: a studio could not be migrated and is not served');
    },
    (err: unknown) => log.error({ err }, 'platform: migrating the studios failed'),
  );
  waker.start();
}
