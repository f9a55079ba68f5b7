import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../server/config';
import { listen } from '../server/startup';
import { createSendGate } from '../bot/delivery/send-gate';
import { buildPlatform, migratePlatform, type PlatformDeps } from './server';
import { createWaker } from './wakes';
import { setUpPendingBots } from './bots';
import { createOnboardingBot, type OnboardingBot } from './onboarding-bot';
import { onboardingPort } from './onboarding';
import { platformRoutes as ownerRoutes } from './routes';
import { ONBOARDING_WEBHOOK, onboardingRoute } from './onboarding-route';

/*
 * The platform's process (PLATFORM=true): the HTTP front for every studio, the studios' periodic jobs by
 * their due index, every studio behind the code's version migrated after start, and the platform's own bot.
 */

/** The platform's own routes: the platform owner's API and the onboarding bot's webhook (with PLATFORM_BOT_TOKEN). */
export function platformRoutes(log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>) {
  let onboarding: OnboardingBot | null = null;
  const routes: NonNullable<PlatformDeps['routes']> = async (app, p) => {
    await ownerRoutes(app, p);
    if (!p.config.platform.botToken) return;
    onboarding = createOnboardingBot({
      token: p.config.platform.botToken,
      secretKey: p.config.secretKey,
      apiRoot: p.config.telegramApiRoot,
      port: onboardingPort(p),
      log,
    });
    onboardingRoute(app, onboarding);
  };
  return { routes, onboarding: () => onboarding };
}

export async function runPlatform(config: Config, log: FastifyBaseLogger): Promise<void> {
  // Every studio's bot of this instance together, taking turns: our own server's cap (PLATFORM_SEND_CAP).
  const sendGate = createSendGate(config.platform.sendCap);
  const own = platformRoutes(log);
  const lifecycle = { draining: false };
  const platform = await buildPlatform({
    config,
    log,
    lifecycle,
    host: { telegramOptions: { sendGate } },
    routes: own.routes,
  });
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
      lifecycle.draining = true;
      log.info({ signal, drain_ms: config.shutdownDrainMs }, 'platform: shutting down');
      const drained = new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      Promise.all([waker.stop(), drained])
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
  const bot = own.onboarding();
  if (bot)
    void bot
      .setUp(`${config.publicUrl}${ONBOARDING_WEBHOOK}`)
      .catch((err: unknown) => log.error({ err }, 'platform: the onboarding bot could not be set up'));
  // Bots whose set-up with Telegram failed before (or a single studio's bot, adopted): tried again.
  void setUpPendingBots(platform.store, config).catch((err: unknown) =>
    log.error({ err }, 'platform: bot set-up failed'),
  );
}
