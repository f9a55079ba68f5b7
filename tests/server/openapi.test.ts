import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PATHS } from '../../server/plugins/swagger';
import { buildTestApp, type TestApp } from '../helpers/app';

// The OpenAPI document as Swagger UI reads it: each operation says how to authenticate for it,
// what errors it answers with, and names its schemas.

interface Operation {
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}
interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Record<string, string>> };
}

type Role = 'public' | 'user' | 'superuser' | 'customer';

// Who may call what; every other operation is for staff ('user').
const PUBLIC = [
  'GET /utils/health-check',
  'GET /utils/ready',
  'POST /login/access-token',
  // The platform bot's one-time link is the credential.
  'POST /login/telegram-link',
  'POST /password-recovery/{email}',
  'POST /reset-password',
  'POST /users/open',
  'GET /schedule/public',
  'GET /privacy',
  // Signed with an HMAC of the id instead: calendar apps send no credentials.
  'GET /records/{id}/calendar.ics',
];
const SUPERUSER = [
  'POST /password-recovery-html-content/{email}',
  'GET /users',
  'POST /users',
  'PATCH /users/{user_id}',
  'DELETE /users/{user_id}',
  'GET /customers/{telegram_id}/data',
  'DELETE /customers/{telegram_id}/data',
  'GET /audit',
  'POST /customers/{telegram_id}/credit',
];
const CUSTOMER = [
  'POST /records',
  'GET /records/{id}',
  'PUT /records/{id}',
  'PUT /records/cancel/{id}',
  'PUT /records/restore/{id}',
  'GET /me/data',
  'DELETE /me/data',
  'POST /records/{id}/gift',
  'GET /gifts/{token}',
  'POST /gifts/{token}/accept',
  'GET /date-subscriptions',
  'PUT /date-subscriptions/{id}',
  'DELETE /date-subscriptions/{id}',
  'GET /me/credit',
  'POST /records/{id}/invoice',
  'GET /records/{id}/ips-qr',
  'POST /records/quote',
  'GET /language',
  'POST /records/{id}/gift/share',
  'POST /me/certificates/{id}/share',
  'GET /certificates/options',
  'POST /certificates/purchase',
  'POST /certificates/check',
  'GET /me/certificates',
];
const roleOf = (op: string): Role =>
  PUBLIC.includes(op) ? 'public' : SUPERUSER.includes(op) ? 'superuser' : CUSTOMER.includes(op) ? 'customer' : 'user';

const SECURITY: Record<Role, Record<string, string[]>[]> = {
  public: [],
  user: [{ bearer: [] }],
  superuser: [{ bearer: [] }],
  customer: [{ bearer: [] }, { telegramInitData: [] }],
};

const REF = '#/components/schemas/';

let t: TestApp;
let doc: Doc;
let ops: { name: string; path: string; method: string; op: Operation }[];

beforeAll(async () => {
  t = await buildTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      name: `${method.toUpperCase()} ${path.replace('/api/v1', '')}`,
      path,
      method,
      op,
    })),
  );
});
afterAll(() => t.close());

/** The component a $ref names, or the schema itself. */
const resolve = (s: Schema): Schema => (s.$ref ? doc.components.schemas[s.$ref.slice(REF.length)] : s);

describe('the OpenAPI document', () => {
  it('lists every operation, the role lists above among them, each with a summary', () => {
    expect(ops.length).toBeGreaterThan(35);
    const names = ops.map((o) => o.name);
    expect(names).toEqual(expect.arrayContaining([...PUBLIC, ...SUPERUSER, ...CUSTOMER]));
    expect(ops.filter((o) => !o.op.summary?.trim()).map((o) => o.name)).toEqual([]);
  });

  it('declares the Bearer and the Telegram init data schemes', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.telegramInitData).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    expect(doc.components.securitySchemes.telegramInitData.description).toContain('tma <initData>');
  });

  it('gives every operation the security of its role: none for public ones', () => {
    const wrong = ops
      .filter((o) => JSON.stringify(o.op.security) !== JSON.stringify(SECURITY[roleOf(o.name)]))
      .map((o) => `${o.name}: ${JSON.stringify(o.op.security)}`);
    expect(wrong).toEqual([]);
  });

  it('matches what the server does: an anonymous call is refused with 401 exactly when the operation declares security', async () => {
    // Operations without a body can be called as they are (a path id of 1, an unknown email).
    const mismatched: string[] = [];
    for (const o of ops.filter((o) => !o.op.requestBody)) {
      const url = o.path.replace('{email}', 'nobody@example.com').replace(/\{[^}]+\}/g, '1');
      const res = await t.app.inject({ method: o.method.toUpperCase() as 'GET', url });
      if ((res.statusCode === 401) !== (o.op.security?.length ?? 0) > 0)
        mismatched.push(`${o.name} → ${res.statusCode}`);
    }
    expect(mismatched).toEqual([]);
  });

  it('declares the errors each operation answers with, all as {"detail": …}', () => {
    const problems: string[] = [];
    for (const { name, op } of ops) {
      const role = roleOf(name);
      const codes = Object.keys(op.responses);
      const expected = [
        ...(role !== 'public' ? ['401'] : []),
        // Any staff call may refuse a host (and a superuser's, anyone else).
        ...(role !== 'public' ? ['403'] : []),
        ...(role !== 'public' && op.parameters?.some((p) => p.in === 'path') ? ['404'] : []),
        ...(op.requestBody || op.parameters?.length ? ['422'] : []),
      ];
      for (const code of expected) if (!codes.includes(code)) problems.push(`${name}: no ${code}`);
      for (const code of codes.filter((c) => Number(c) >= 400)) {
        const schema = op.responses[code].content?.['application/json']?.schema;
        const body = schema && resolve(schema);
        if (!schema?.$ref || !body?.properties?.detail || !body.required?.includes('detail'))
          problems.push(`${name}: ${code} is not a {"detail"} component`);
        if (!op.responses[code].description) problems.push(`${name}: ${code} has no description`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('names its object schemas as components that request bodies and responses refer to', () => {
    const inline: string[] = [];
    for (const { name, op } of ops) {
      const bodies = Object.values(op.requestBody?.content ?? {}).map((c) => ['body', c.schema] as const);
      const responses = Object.entries(op.responses).flatMap(([code, r]) =>
        Object.values(r.content ?? {}).map((c) => [code, c.schema] as const),
      );
      for (const [where, schema] of [...bodies, ...responses]) {
        if (!schema.$ref && schema.type === 'object') inline.push(`${name} ${where}`);
      }
    }
    expect(inline).toEqual([]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['UserPublic', 'RecordView', 'SchedulePublic', 'HTTPError']),
    );
    // The caller's own account carries what they may do (UserMe: UserPublic with capabilities).
    expect(doc.paths['/api/v1/users/me'].get.responses['200'].content?.['application/json'].schema).toEqual({
      $ref: `${REF}UserMe`,
    });
  });

  it('has no dangling references and no unused components', () => {
    const refs = new Set<string>();
    JSON.stringify(doc, (key, value) => {
      if (key === '$ref') refs.add(value);
      return value;
    });
    const names = [...refs].map((r) => r.slice(REF.length));
    expect(names.filter((n) => !doc.components.schemas[n])).toEqual([]);
    expect(Object.keys(doc.components.schemas).filter((n) => !refs.has(REF + n))).toEqual([]);
  });
});

// Swagger UI is served by a documentation instance of its own, built on the first request for it.
describe('Swagger UI at /docs', () => {
  it('has the paths the plugin registers', async () => {
    const plain = Fastify();
    const paths = new Set<string>();
    plain.addHook('onRoute', (route) => {
      if (route.method !== 'HEAD') paths.add(route.url);
    });
    await plain.register(swagger, { openapi: {} });
    await plain.register(swaggerUi, { routePrefix: '/docs' });
    await plain.ready();
    expect([...paths].sort()).toEqual([...DOCS_PATHS].sort());
    await plain.close();
  });

  it('serves the document, the pages and their files, and answers a missing file as the app does', async () => {
    const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url });
    expect((await get('/docs/json')).json()).toEqual(doc);
    const page = await get('/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    // The app's own headers (helmet's) come on the forwarded page.
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const css = await get('/docs/static/swagger-ui.css');
    expect([css.statusCode, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
    const head = await get('/docs/static/swagger-ui.css', 'HEAD');
    expect([head.statusCode, head.headers['content-length'], head.body]).toEqual([
      200,
      String(css.rawPayload.length),
      '',
    ]);
    expect((await get('/docs/static/index.html')).headers.location).toBe('/docs/');
    const missing = await get('/docs/static/nothing.js');
    expect([missing.statusCode, missing.json()]).toEqual([404, { detail: 'Not Found' }]);
  });
});
