import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { signInitData } from '../plugins/telegram-init-data';

/**
 * Development only: `GET /dev/miniapp` opens the mini-app in an ordinary browser as a test customer. The server
 * signs the init data with its own BOT_TOKEN, exactly as Telegram would, so every customer call is checked as in
 * production. Query: `id` (Telegram user id, default 100001), `name`, `lang` (ru, en, sr), `to` (a mini-app page,
 * default /apply). Never registered in production: anyone who could open it would be any customer they chose.
 */
export function devMiniAppRoute(app: FastifyInstance, config: Config): void {
  if (config.env === 'production') return;
  app.get('/dev/miniapp', { schema: { hide: true } }, (req, reply) => {
    if (!config.botToken)
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('Set BOT_TOKEN (any value in development): the test user’s init data is signed with it.');
    const q = req.query as Record<string, string | undefined>;
    const id = Number(q.id ?? 100001);
    const to = q.to ?? '/apply';
    // Only a page of this server: `//host` would leave it.
    if (!Number.isSafeInteger(id) || id <= 0 || !/^\/(?!\/)/.test(to))
      return reply.status(400).type('text/plain; charset=utf-8').send('id: a positive integer; to: a path like /apply');
    const user = { id, first_name: q.name ?? 'Test customer', language_code: q.lang ?? 'ru' };
    const launch = new URLSearchParams({
      tgWebAppData: signInitData(user, config.botToken),
      tgWebAppVersion: '8.0',
      tgWebAppPlatform: 'web',
    });
    return reply.redirect(`${to}#${launch}`);
  });
}
