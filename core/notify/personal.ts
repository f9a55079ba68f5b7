import { z } from 'zod';
import { ERASED_NAME } from '../../contract';

/*
 * Which stored values are personal, declared on the schemas of what is stored (outbox payloads,
 * booking log entries), and the one walk that erases them. A personal value belongs to a booking
 * and to the Telegram user who owned it when the value was written: a booking given to a friend
 * keeps the giver's values in its older messages and history, and erasing the giver erases those,
 * never the friend's.
 */

/** 'health' goes first (allergy, comment); 'identity' (names, Telegram account) with the rest. */
export type PersonalKind = 'identity' | 'health';

/** Whose a value is: its booking, and that booking's owner's Telegram id when it was written (undefined: not recorded). */
export interface Owner {
  /** Absent for what belongs to no booking (a staff account's Telegram link). */
  record_id?: number;
  telegram_id?: number | null;
}

/** Who is erased, and how much: a scope answers for each owner whether its values go. */
export interface ErasureScope {
  stage: 'health' | 'all';
  owns(owner: Owner): boolean;
}

type Json = Record<string, unknown>;
/** The owner of a field's value, from the object that holds it and the whole stored value (the payload). */
type OwnerOf = (parent: Json, root: Json) => Owner | undefined;

const personalFields = z.registry<{ kind: PersonalKind; owner?: OwnerOf }>();
const subjects = z.registry<{ owner: OwnerOf }>();

/** Marks a field personal; its owner is the nearest enclosing subject's, unless `owner` says otherwise. */
export function personal<T extends z.ZodType>(schema: T, kind: PersonalKind = 'identity', owner?: OwnerOf): T {
  personalFields.add(schema as z.ZodType, { kind, owner });
  return schema;
}

/** Marks an object as a booking's copy: the personal fields inside it are that booking owner's. */
export function subject<T extends z.ZodType>(schema: T, owner: OwnerOf = bookingOwner): T {
  subjects.add(schema as z.ZodType, { owner });
  return schema;
}

/** A booking's copy names its booking and, since this version, its owner's Telegram id. */
export const bookingOwner = (o: Json): Owner | undefined =>
  typeof o.record_id === 'number'
    ? { record_id: o.record_id, telegram_id: o.telegram_id as number | null | undefined }
    : undefined;

type Def = { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> } & Json;
const defOf = (s: z.ZodType) => s.def as Def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The personal mark of a field, looking through optional, nullable and the like. */
function markOf(schema: z.ZodType) {
  for (let s: z.ZodType | undefined = schema; s; s = WRAPPERS.has(defOf(s).type) ? defOf(s).innerType : undefined) {
    const mark = personalFields.get(s);
    if (mark) return mark;
  }
  return undefined;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (WRAPPERS.has(defOf(s).type) && defOf(s).innerType) s = defOf(s).innerType!;
  return s;
}

/** What an erased value becomes, by its type: null where null is allowed, else false or «Удалено». */
function erased(schema: z.ZodType): unknown {
  if (schema.safeParse(null).success) return null;
  if (schema.safeParse(false).success) return false;
  return ERASED_NAME;
}

function walk(schema: z.ZodType, value: unknown, scope: ErasureScope, owner: Owner | undefined, root: Json): unknown {
  if (value === null || value === undefined) return value;
  const s = unwrap(schema);
  const def = defOf(s);
  if (def.type === 'array') {
    const element = def.element as z.ZodType;
    return Array.isArray(value) ? value.map((v) => walk(element, v, scope, owner, root)) : value;
  }
  if (def.type === 'union') {
    const options = def.options as z.ZodType[];
    const key = def.discriminator as string | undefined;
    const option = key
      ? options.find((o) => (defOf(defOf(unwrap(o)).shape![key]).values as unknown[]).includes((value as Json)[key]))
      : options.find((o) => o.safeParse(value).success);
    return option ? walk(option, value, scope, owner, root) : value;
  }
  if (def.type !== 'object' || typeof value !== 'object' || Array.isArray(value)) return value;
  const o = value as Json;
  const own = subjects.get(s)?.owner(o, root) ?? owner;
  const out: Json = { ...o };
  for (const [key, field] of Object.entries(def.shape!)) {
    if (!(key in o)) continue;
    const mark = markOf(field);
    if (!mark) {
      out[key] = walk(field, o[key], scope, own, root);
      continue;
    }
    const whose = mark.owner ? mark.owner(o, root) : own;
    if (whose && (scope.stage === 'all' || mark.kind === 'health') && scope.owns(whose)) out[key] = erased(field);
  }
  return out;
}

/**
 * `value` with the personal values that `scope` owns erased, by what `schema` declares; everything
 * else (other people's values, unknown keys) as it was.
 */
export function erasePersonal<T>(schema: z.ZodType, value: T, scope: ErasureScope, owner?: Owner): T {
  if (value === null || typeof value !== 'object') return value;
  return walk(schema, value, scope, owner, value as Json) as T;
}

/** The personal fields a schema declares, as paths ('payload.record.name'), with whether each has an owner. */
export function personalPaths(schema: z.ZodType, prefix = '', inSubject = false): { path: string; owned: boolean }[] {
  const s = unwrap(schema);
  const def = defOf(s);
  if (def.type === 'array') return personalPaths(def.element as z.ZodType, `${prefix}[]`, inSubject);
  if (def.type === 'union') return (def.options as z.ZodType[]).flatMap((o) => personalPaths(o, prefix, inSubject));
  if (def.type !== 'object') return [];
  const owned = inSubject || subjects.has(s);
  return Object.entries(def.shape!).flatMap(([key, field]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    const mark = markOf(field);
    return mark ? [{ path, owned: owned || Boolean(mark.owner) }] : personalPaths(field, path, owned);
  });
}
