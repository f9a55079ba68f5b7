import type { FastifyInstance } from 'fastify';
import type { PlatformStore } from './store';

/*
 * The platform's /login: a studio's staff sign in at their studio's address (/s/<slug>/login); one who
 * came to the platform's own address is asked which studio, by its address or its name, and sent there.
 */

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** What a person may type: the studio's address (…/s/<slug>/…), its slug, or its name. */
export function studioQuery(input: string): string {
  const trimmed = input.trim();
  const fromUrl = /\/s\/([a-z0-9][a-z0-9-]{1,39})(?:[/?#]|$)/i.exec(trimmed);
  return (fromUrl ? fromUrl[1] : trimmed).toLowerCase();
}

function page(value: string, problem: string | null) {
  return `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Вход в студию</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f5f5f7; color: #1a1a1a; }
  main { max-width: 420px; margin: 12vh auto; padding: 24px; background: #fff; border-radius: 12px; box-shadow: 0 1px 4px rgb(0 0 0 / 0.12); }
  h1 { font-size: 1.4rem; margin: 0 0 8px; }
  label { display: block; font-weight: 600; margin: 16px 0 6px; }
  input { box-sizing: border-box; width: 100%; font: inherit; padding: 10px 12px; border: 1px solid #767676; border-radius: 8px; }
  button { margin-top: 16px; width: 100%; font: inherit; font-weight: 600; padding: 10px; border: 0; border-radius: 8px; background: #1c5fd4; color: #fff; cursor: pointer; }
  .hint { color: #4a4a4a; font-size: 0.9rem; margin: 6px 0 0; }
  .problem { color: #b00020; margin: 8px 0 0; }
  @media (max-width: 480px) { main { margin: 0; min-height: 100vh; border-radius: 0; box-shadow: none; } }
</style>
</head>
<body>
<main>
  <h1>Вход в студию</h1>
  <p>Каждая студия входит по своему адресу. Укажите, в какую студию вы входите.</p>
  <form method="get" action="/login">
    <label for="studio">Адрес или название студии</label>
    <input id="studio" name="studio" value="${escape(value)}" required autocomplete="off" aria-describedby="studio-hint${problem ? ' studio-problem' : ''}"${problem ? ' aria-invalid="true"' : ''}>
    <p class="hint" id="studio-hint">Например: https://…/s/moya-studiya или «Моя студия»</p>
    ${problem ? `<p class="problem" id="studio-problem" role="alert">${escape(problem)}</p>` : ''}
    <button type="submit">Продолжить</button>
  </form>
</main>
</body>
</html>`;
}

export function studioFinderRoute(app: FastifyInstance, store: PlatformStore) {
  app.get<{ Querystring: { studio?: string } }>('/login', { schema: { hide: true } }, async (req, reply) => {
    const asked = typeof req.query.studio === 'string' ? req.query.studio.slice(0, 200) : '';
    if (asked.trim()) {
      const q = studioQuery(asked);
      const found = await store.db
        .selectFrom('studios')
        .select('slug')
        .where((eb) => eb.or([eb('slug', '=', q), eb(eb.fn('lower', ['name']), '=', asked.trim().toLowerCase())]))
        .limit(2)
        .execute();
      if (found.length === 1) return reply.redirect(`/s/${found[0].slug}/login`);
      return reply
        .type('text/html; charset=utf-8')
        .send(
          page(
            asked,
            found.length === 0
              ? 'Такой студии нет. Проверьте адрес или спросите его у владельца студии.'
              : 'Студий с таким названием несколько: укажите адрес студии.',
          ),
        );
    }
    return reply.type('text/html; charset=utf-8').send(page('', null));
  });
}
