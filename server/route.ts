import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as contract from '../contract';
import { operationIds, type Endpoint, type SchemaName } from '../contract/endpoints';

type Contract = typeof contract;
type SchemaOf<E, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: infer N extends SchemaName }
  ? Contract[N]
  : undefined;

/** The route schema an endpoint description stands for, with the zod types the handler's request and reply follow. */
type RouteSchema<E extends Endpoint> = FastifySchema & {
  params: SchemaOf<E, 'params'>;
  querystring: SchemaOf<E, 'query'>;
  body: SchemaOf<E, 'body'>;
  response: E extends { response: infer N extends SchemaName }
    ? { [S in E extends { status: 201 } ? 201 : 200]: Contract[N] }
    : undefined;
};

/** A handler of an endpoint: `req.params`, `req.query`, `req.body` and what it returns are typed by the endpoint's schemas. */
export type EndpointHandler<E extends Endpoint> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  RouteSchema<E>,
  ZodTypeProvider
>;

/** The success of an endpoint that answers nothing (`status: 204`): documented, never serialized. */
const NO_CONTENT = z.undefined().describe('No Content');

/**
 * Registers the route of an endpoint described in contract/endpoints: method, path, who may call it
 * (`config.auth` and the capability `config.can`), the schemas that validate its input and serialize its answer, and what the OpenAPI
 * document says of it (tag, summary, error statuses). A route file holds only the handlers.
 * `config` adds route options of the server's own (a rate limit); `options`, plugins' route options.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  config: Omit<FastifyContextConfig, 'auth' | 'can'> = {},
  options: Pick<RouteOptions, 'compress'> = {},
) {
  const schema: FastifySchema = {
    operationId: operationIds.get(endpoint),
    tags: [endpoint.tag],
    summary: endpoint.summary,
  };
  if (endpoint.description) schema.description = endpoint.description;
  if (endpoint.errors) schema.errors = endpoint.errors;
  if (endpoint.form) schema.consumes = ['application/x-www-form-urlencoded'];
  if (endpoint.params) schema.params = contract[endpoint.params];
  if (endpoint.query) schema.querystring = contract[endpoint.query];
  if (endpoint.body) schema.body = contract[endpoint.body];
  if (endpoint.response) schema.response = { [endpoint.status ?? 200]: contract[endpoint.response] };
  else if (endpoint.status === 204) schema.response = { 204: NO_CONTENT };
  app.route({
    ...options,
    method: endpoint.method,
    url: endpoint.path,
    config: { ...config, auth: endpoint.access, can: endpoint.can },
    schema,
    // The schema built here is the one RouteSchema<E> describes.
    handler: handler as RouteHandlerMethod,
  });
}
