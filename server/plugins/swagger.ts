import Fastify, { type FastifyInstance, type FastifySchema, type RouteOptions } from 'fastify';
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as contract from '../../contract';
import { TAGS, type Access, type ErrorStatus } from '../../contract/endpoints';
import { ROLES, can, type Capability } from '../../contract/roles';

/** Error statuses a route's own rules answer with; the ones its role and input imply are added for it. */
type RouteError = ErrorStatus;

declare module 'fastify' {
  interface FastifySchema {
    errors?: readonly RouteError[];
  }
}

// The contract's objects become named components that operations $ref (zod's registry is what the
// type provider reads ids from); registered once per process, whatever the number of apps built.
for (const [name, schema] of Object.entries(contract)) {
  if (schema instanceof z.ZodObject && !z.globalRegistry.get(schema)?.id)
    z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id: name });
}

/** What the error handler sends for a request that fails its schema. */
const ValidationError = contract.HTTPError.extend({
  errors: z.array(z.object({ loc: z.array(z.string()), msg: z.string() })),
});
if (!z.globalRegistry.get(ValidationError)?.id) z.globalRegistry.add(ValidationError, { id: 'ValidationError' });

const ERROR_TEXT: Record<RouteError | 401 | 422, string> = {
  400: 'Refused: a wrong password, an expired token…',
  401: 'Not authenticated: missing, invalid or expired credentials',
  403: 'Not allowed for this user (a host: «Нет доступа» on what a host may not call and on sessions outside today and tomorrow)',
  404: 'Not found',
  409: 'Refused by the current state: a past session, a duplicate, a thing still in use…',
  422: 'The request does not match its schema',
  429: 'Too many requests: wait and try again',
  503: 'Telegram is not configured or unreachable',
};

const SECURITY: Record<Access, { [scheme: string]: string[] }[]> = {
  public: [],
  staff: [{ bearer: [] }],
  customer: [{ bearer: [] }, { telegramInitData: [] }],
};

/** Error statuses of an operation: those its role and input imply, plus the route's own. */
function errorStatuses(access: Access, schema: FastifySchema, method: string): number[] {
  const codes = new Set<number>(schema.errors ?? []);
  if (access !== 'public') codes.add(401);
  // A staff role without the endpoint's capability is refused.
  if (access !== 'public') codes.add(403);
  // A path id names a thing that may not exist.
  if (access !== 'public' && schema.params) codes.add(404);
  if (schema.body || schema.params || schema.querystring) codes.add(422);
  // Customers' writing requests share a per-Telegram-user limit (server/plugins/customer-writes.ts).
  if (access === 'customer' && method !== 'GET' && method !== 'HEAD') codes.add(429);
  return [...codes].sort();
}

const UNDOCUMENTED = z.undefined().describe('Default Response');

const errorResponse = (code: number) => ({
  description: ERROR_TEXT[code as keyof typeof ERROR_TEXT],
  content: { 'application/json': { schema: code === 422 ? ValidationError : contract.HTTPError } },
});

/** Adds each operation's security and error responses from its `config.auth`, then lets the type provider convert the zod schemas. */
const transform: SwaggerTransform = (document) => {
  const { schema, route } = document;
  const access = route.config?.auth;
  if (!schema || schema.hide || !access) return jsonSchemaTransform(document);
  const { errors: _, ...rest } = schema;
  const response: Record<string, unknown> = { ...(rest.response as object | undefined) };
  // Without a declared success response the document would lose its default 200.
  if (!Object.keys(response).some((code) => code.startsWith('2'))) response[200] = UNDOCUMENTED;
  for (const code of errorStatuses(access, schema, [route.method].flat()[0] ?? 'GET'))
    response[code] = errorResponse(code);
  // Which staff roles may call it, said where the reader of the operation looks.
  const capability = route.config?.can;
  const description = capability
    ? [rest.description, staffNote(capability)].filter(Boolean).join('\n\n')
    : rest.description;
  return jsonSchemaTransform({
    ...document,
    schema: { ...rest, description, ...inlineParameters(rest), security: SECURITY[access], response },
  });
};

function staffNote(capability: Capability): string {
  const roles = ROLES.filter((r) => can(r, capability)).join(', ');
  const host = can('host', capability) ? ' A host may call it (on today’s and tomorrow’s sessions).' : '';
  return `Staff: needs \`${capability}\` (${roles}).${host}`;
}

/** @fastify/swagger lists parameters one by one and cannot expand a $ref there: an unnamed copy (no parent, so no
 * inherited id) keeps them inline. */
function inlineParameters(schema: FastifySchema) {
  const inline = (s: unknown) => (s instanceof z.ZodType ? s.clone(s.def) : s);
  return { params: inline(schema.params), querystring: inline(schema.querystring), headers: inline(schema.headers) };
}

const COMPONENT_REF = '#/components/schemas/';

/** The type provider emits every registered schema twice (input and output); only those operations reach are kept. */
const transformObject: SwaggerTransformObject = (document) => {
  const doc = jsonSchemaTransformObject(document) as {
    paths?: unknown;
    components?: { schemas?: Record<string, unknown> };
  };
  const schemas = doc.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_REF)) {
        const id = value.slice(COMPONENT_REF.length);
        if (!used.has(id)) {
          used.add(id);
          visit(schemas[id]);
        }
      } else visit(value);
    }
  };
  visit(doc.paths);
  // The router ignores a trailing slash, so `/users/` and `/users` are one operation: the document names it without.
  if (doc.paths && typeof doc.paths === 'object')
    doc.paths = Object.fromEntries(
      Object.entries(doc.paths).map(([path, item]) => [path.length > 1 ? path.replace(/\/$/, '') : path, item]),
    );
  if (doc.components)
    doc.components.schemas = Object.fromEntries(Object.entries(schemas).filter(([id]) => used.has(id)));
  return doc as ReturnType<SwaggerTransformObject>;
};

/** Swagger UI's pages as @fastify/swagger-ui registers them under /docs, each for GET and HEAD. */
export const DOCS_PATHS = [
  '/docs',
  '/docs/static/index.html',
  '/docs/static/swagger-initializer.js',
  '/docs/json',
  '/docs/yaml',
  '/docs/static/*',
];

/** The requests the documentation instance could not answer (no such page, an error), for the app to answer as its own. */
const unanswered = new WeakMap<object, { notFound: true } | { failed: unknown }>();

/** Answers of the documentation instance's own making, not to be copied onto the app's reply. */
const PER_CONNECTION = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * The OpenAPI document (the API serves it at /openapi.json; the returned function builds it) and
 * Swagger UI at /docs. Both plugins and what they load (a YAML library, a JSON-schema resolver) cost
 * a tenth of the start-up, so they live in a second Fastify instance that never listens, built on the
 * first request that needs it. That instance is handed every route the app declares after this call,
 * as declared, so the document describes the app exactly as the plugin would inside it; the app
 * forwards the /docs pages to it and answers whatever it cannot (no such file, an error) itself.
 */
export function registerSwagger(
  app: FastifyInstance,
  routerOptions: { ignoreTrailingSlash: boolean },
): () => Promise<unknown> {
  let docs: Promise<FastifyInstance> | undefined;
  const load = () =>
    (docs ??= docsInstance(routes, routerOptions).catch((err: unknown) => {
      docs = undefined;
      throw err;
    }));

  // Declared before the routes are collected: they are the documentation, not routes it describes.
  for (const url of DOCS_PATHS) {
    app.get(url, { schema: { hide: true } }, async (req, reply) => {
      // A HEAD is forwarded as a GET: Fastify then answers it from the whole page, as it does every HEAD.
      const res = await (await load()).inject({ method: 'GET', url: req.url, headers: req.headers });
      const mark = unanswered.get(res.raw.req);
      if (mark && 'failed' in mark) throw mark.failed;
      if (mark) return reply.callNotFound();
      for (const [name, value] of Object.entries(res.headers))
        if (value !== undefined && !PER_CONNECTION.has(name)) void reply.header(name, value);
      // An empty answer (a redirect) stays without a body, so Fastify gives it no content type of its own.
      return reply.code(res.statusCode).send(res.rawPayload.length > 0 ? res.rawPayload : undefined);
    });
  }
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  return async () => (await load()).swagger();
}

async function docsInstance(
  routes: RouteOptions[],
  routerOptions: { ignoreTrailingSlash: boolean },
): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const docs = Fastify({
    routerOptions,
    // The copies of the app's routes never run: their schemas need no compiling (nor ajv loading).
    schemaController: {
      compilersFactory: {
        buildValidator: (() => () => () => true) as never,
        buildSerializer: (() => () => JSON.stringify) as never,
      },
    },
  });
  docs.setNotFoundHandler((req, reply) => {
    unanswered.set(req.raw, { notFound: true });
    return reply.code(404).send();
  });
  docs.setErrorHandler((err, req, reply) => {
    unanswered.set(req.raw, { failed: err });
    return reply.code(500).send();
  });
  await docs.register(swagger, {
    openapi: {
      info: {
        title: 'Workshop booking API',
        version: '1.0.0',
        description:
          'The JSON API of the booking system: the Telegram mini-app (customers, `Authorization: tma <initData>`) and the ' +
          'staff admin (`Bearer` token from POST /api/v1/login/access-token) both call it. Money is in whole RSD.',
        contact: { name: 'The studio’s administrator', url: '/' },
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Staff: access_token from POST /api/v1/login/access-token',
          },
          telegramInitData: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description:
              'Customer in the mini-app: `tma <initData>` (Telegram WebApp initData, verified with the bot token)',
          },
        },
      },
    },
    transform,
    transformObject,
  });
  await docs.register(swaggerUi, { routePrefix: '/docs' });
  // HEAD routes come as the app declared them (its automatic ones included), so none is added twice.
  for (const { method, url, schema, config } of routes)
    docs.route({ method, url, schema, config, exposeHeadRoute: false, handler: async () => null });
  await docs.ready();
  return docs;
}
