import type { Language } from '../language';
import { refusals as en } from './en/refusals';
import { refusals as ru, staffRefusals } from './ru/refusals';
import { refusals as sr } from './sr/refusals';

export type { CustomerRefusals, DeadlineArgs } from './ru/refusals';

/*
 * A refusal travels as a code and its values; each adapter says it in its reader's language at the
 * last moment (the HTTP errors, the bot's replies, a booking's `allowed` reasons).
 */

type Entry = string | ((args: never) => string);
type AllRefusals = typeof ru & typeof staffRefusals;

export type RefusalCode = keyof AllRefusals;
/** The values a refusal shows, or undefined for a fixed text. */
export type RefusalArgs<C extends RefusalCode = RefusalCode> = C extends RefusalCode
  ? AllRefusals[C] extends (args: infer A) => string
    ? A
    : undefined
  : never;
/** What to say: a code, with its values when it shows any. */
export type RefusalRef<C extends RefusalCode = RefusalCode> = C extends RefusalCode
  ? { code: C } & (RefusalArgs<C> extends undefined ? { args?: undefined } : { args: RefusalArgs<C> })
  : never;

const customer: Record<Language, Record<string, Entry>> = { ru, en, sr };
const staff: Record<string, Entry> = staffRefusals;

export const isStaffRefusal = (code: RefusalCode): code is keyof typeof staffRefusals => code in staffRefusals;

/** A refusal as its reader reads it: a customer's in their language, a staff one as it is. */
export function sayRefusal(language: Language, { code, args }: { code: RefusalCode; args?: unknown }): string {
  const entry = isStaffRefusal(code) ? staff[code] : customer[language][code];
  return typeof entry === 'function' ? (entry as (a: unknown) => string)(args) : entry;
}

/** Every refusal code (the completeness test says each in every language). */
export const REFUSAL_CODES = [...Object.keys(ru), ...Object.keys(staffRefusals)] as RefusalCode[];

export const isRefusalCode = (value: string): value is RefusalCode => REFUSAL_CODES.includes(value as RefusalCode);

/** The codes of fixed texts (no values). */
export type FixedRefusalCode = { [C in RefusalCode]: RefusalArgs<C> extends undefined ? C : never }[RefusalCode];
/** The values after a code: none for a fixed text, one object for a text with values. */
export type RefusalArgsList<C extends RefusalCode> = [C] extends [FixedRefusalCode] ? [] : [args: RefusalArgs<C>];

/** refusal('deadline', { hours: 3, contact: '' }) → { code, args }. */
export const refusal = <C extends RefusalCode>(code: C, ...args: RefusalArgsList<C>) =>
  ({ code, args: args[0] }) as RefusalRef<C>;
