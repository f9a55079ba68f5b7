import type { Access, Body, Endpoint, Method, Params, Query, Reply } from './endpoint';

/** What an endpoint's URL takes: its path parameters and query, each only when it has them. */
type UrlArgs<E extends Endpoint> = (E extends { params: string } ? { params: Params<E> } : { params?: never }) &
  (E extends { query: string } ? { query?: Query<E> } : { query?: never });

/** What a call of an endpoint takes: its URL's arguments, and its body when it has one. */
export type Args<E extends Endpoint> = UrlArgs<E> & (E extends { body: string } ? { body: Body<E> } : { body?: never });

/** The arguments may be left out when none is required. */
type Optional<A> = object extends A ? [args?: A] : [args: A];
export type ArgList<E extends Endpoint> = Optional<Args<E>>;

function buildUrl(endpoint: Endpoint, args: { params?: object; query?: object } = {}): string {
  const params: Record<string, unknown> = { ...args.params };
  const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(args.query ?? {}))
    if (value !== undefined && value !== null && value !== '') query.append(key, String(value));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** The endpoint's URL under the API prefix: path parameters filled in (encoded), empty query values left out. */
export const urlOf = <E extends Endpoint>(endpoint: E, ...[args]: Optional<UrlArgs<E>>): string =>
  buildUrl(endpoint, args);

/** One request as a front end's transport sends it. */
export interface ApiRequest {
  method: Method;
  /** Under the API prefix, from urlOf. */
  url: string;
  body?: unknown;
  /** Send the body as an HTML form instead of JSON. */
  form: boolean;
  /** Public endpoints need no credentials. */
  access: Access;
}

/**
 * A typed client over a front end's transport (its credentials, its error handling): `call(recordsApi.get,
 * { params: { id } })` answers the endpoint's response type. The server serializes every response through
 * the same schema, so the transport's parsed body is taken as that type here, in this one place.
 */
export function createClient(send: (request: ApiRequest) => Promise<unknown>) {
  return <E extends Endpoint>(endpoint: E, ...args: ArgList<E>): Promise<Reply<E>> =>
    send({
      method: endpoint.method,
      url: buildUrl(endpoint, args[0]),
      body: args[0]?.body,
      form: endpoint.form === true,
      access: endpoint.access,
    }) as Promise<Reply<E>>;
}
