import type { z } from 'zod';
import type * as contract from '../index';
import type { Capability } from '../roles';
import type { Tag } from './tags';

/*
 * What an endpoint description is. The descriptions (one file per OpenAPI tag beside this one) are
 * plain data: the server registers its routes from them and both front ends call them through the
 * client (client.ts). They name their schemas by the contract's export names, which are also the
 * OpenAPI components, instead of holding the zod objects: a front end that imports a description
 * then loads no zod, so the mini-app's first load stays small. Only the types below reach zod.
 */

/**
 * Who may call an endpoint:
 * - public: anyone;
 * - staff: an active staff member (Bearer JWT) whose role has the endpoint's capability (`can`);
 * - customer: a Telegram user (verified init data, `Authorization: tma …`), or a staff member with `can`.
 */
export type Access = 'public' | 'staff' | 'customer';

/** Error statuses an endpoint's own rules answer with (the ones its access and input imply are added for it). */
export type ErrorStatus = 400 | 403 | 404 | 409 | 429 | 503;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Contract = typeof contract;

/** The name of a zod schema exported by the contract. */
export type SchemaName = { [K in keyof Contract]: Contract[K] extends z.ZodType ? K : never }[keyof Contract];

export interface Endpoint {
  method: Method;
  /** Under /api/v1; `:name` is a path parameter (the `params` schema checks it). */
  path: string;
  access: Access;
  /** What a staff caller's role must be able to do (contract/roles.ts); every staff and customer endpoint names one. */
  can?: Capability;
  /** The OpenAPI tag (the group in Swagger UI). */
  tag: Tag;
  summary: string;
  /** More than the summary says, when it needs saying. */
  description?: string;
  errors?: readonly ErrorStatus[];
  params?: SchemaName;
  query?: SchemaName;
  body?: SchemaName;
  /** The body is an HTML form (application/x-www-form-urlencoded), not JSON: the OAuth2 password login. */
  form?: true;
  /** The JSON body of a success; none when the answer is a file (CSV, iCalendar, HTML). */
  response?: SchemaName;
  /** The success status: 201 for a creation, 204 for a change that answers nothing (no `response`), else 200. */
  status?: 201 | 204;
}

/** A tag's endpoints by name. */
export type Endpoints = Readonly<Record<string, Endpoint>>;

type Output<N> = N extends SchemaName ? z.output<Contract[N]> : never;
type Input<N> = N extends SchemaName ? z.input<Contract[N]> : never;

/** The path parameters, as the server reads them. */
export type Params<E extends Endpoint> = E extends { params: infer N } ? Output<N> : never;
/** The query parameters; empty ones are left out of the URL. */
export type Query<E extends Endpoint> = E extends { query: infer N }
  ? { [K in keyof Output<N>]?: Output<N>[K] | null }
  : never;
/** The request body as a caller writes it (defaults may be left out). */
export type Body<E extends Endpoint> = E extends { body: infer N } ? Input<N> : never;
/** The body of a success. */
export type Reply<E extends Endpoint> = E extends { response: infer N } ? Output<N> : unknown;
