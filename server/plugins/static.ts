import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { APP_CONFIG_META, type AppConfig } from '../../contract/app-config';

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A built page with the runtime config in a <meta> (no inline script, so the CSP stays strict).
 * Re-read when the file changes (a rebuild during `npm run dev`); null while not built. */
function page(distDir: string, entry: 'webapp' | 'admin', client: AppConfig): () => string | null {
  const file = path.join(distDir, entry, 'index.html');
  const meta = `<meta name="${APP_CONFIG_META}" content="${escapeAttr(JSON.stringify(client))}">\n</head>`;
  let cached: { mtimeMs: number; html: string } | null = null;
  return () => {
    try {
      const { mtimeMs } = fs.statSync(file);
      if (cached?.mtimeMs !== mtimeMs)
        cached = { mtimeMs, html: fs.readFileSync(file, 'utf8').replace('</head>', meta) };
      return cached.html;
    } catch {
      return null;
    }
  };
}

/**
 * The two front-end bundles from one origin: the mini-app at /apply and /record/:id, the
 * admin at every other path that is not the API; hashed assets are cached for a year.
 */
export async function registerStatic(app: FastifyInstance, opts: { distDir: string; client: AppConfig }) {
  // Looked up per request, so a build made while the server runs (npm run dev) is served too.
  const assets = path.join(opts.distDir, 'assets');
  fs.mkdirSync(assets, { recursive: true });
  await app.register(fastifyStatic, {
    root: assets,
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    preCompressed: true,
  });
  const pages = { webapp: page(opts.distDir, 'webapp', opts.client), admin: page(opts.distDir, 'admin', opts.client) };

  const send = (reply: FastifyReply, entry: 'webapp' | 'admin') => {
    const html = pages[entry]();
    if (!html)
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web bundles are not built yet: run `npm run build` (npm start does it).');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  };

  app.get('/apply', { schema: { hide: true } }, (_req, reply) => send(reply, 'webapp'));
  app.get('/record/:id', { schema: { hide: true } }, (_req, reply) => send(reply, 'webapp'));
  app.get('/*', { schema: { hide: true } }, (req, reply) => {
    if (req.url.startsWith('/api/') || req.url.startsWith('/assets/'))
      return reply.status(404).send({ detail: 'Not Found' });
    return send(reply, 'admin');
  });
}
