import type { FastifyInstance, FastifySchema } from 'fastify';
import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as contract from '../../contract';
import type { Access, ErrorStatus } from '../../contract/endpoints';

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
  user: [{ bearer: [] }],
  superuser: [{ bearer: [] }],
  customer: [{ bearer: [] }, { telegramInitData: [] }],
};

/** Error statuses of an operation: those its role and input imply, plus the route's own. */
function errorStatuses(access: Access, schema: FastifySchema, method: string): number[] {
  const codes = new Set<number>(schema.errors ?? []);
  if (access !== 'public') codes.add(401);
  // A host is refused every staff call not declared for it; a superuser's call refuses everyone else.
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
  // Whether the staff role at the door may call it, said where the reader of the operation looks.
  const description = route.config?.host
    ? [rest.description, 'A host may call it (on today’s and tomorrow’s sessions).'].filter(Boolean).join('\n\n')
    : rest.description;
  return jsonSchemaTransform({
    ...document,
    schema: { ...rest, description, ...inlineParameters(rest), security: SECURITY[access], response },
  });
};

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
  if (doc.components)
    doc.components.schemas = Object.fromEntries(Object.entries(schemas).filter(([id]) => used.has(id)));
  return doc as ReturnType<SwaggerTransformObject>;
};

/** The OpenAPI document (served by the API at /openapi.json) and Swagger UI at /docs. */
export async function registerSwagger(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Workshop booking API', version: '1.0.0' },
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
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
