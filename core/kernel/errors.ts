import type { Language } from '../../contract/language';
import {
  sayRefusal,
  type FixedRefusalCode,
  type RefusalArgs,
  type RefusalArgsList,
  type RefusalCode,
  type RefusalRef,
} from '../../contract/texts/refusal';

export type { FixedRefusalCode, RefusalCode, RefusalRef };

/**
 * What the domain refuses: a code and its values (contract/texts). The adapters choose how to say
 * it: the HTTP server maps each class to a status and says the code in the caller's language
 * (server/plugins/errors.ts), the bot in the customer's. `message` is the Russian text, for staff and logs.
 */
export class DomainError<C extends RefusalCode = RefusalCode> extends Error {
  override readonly name: string = 'DomainError';
  readonly code: C;
  readonly args: RefusalArgs<C>;
  constructor(refusal: RefusalRef<C>);
  constructor(code: C, ...args: RefusalArgsList<C>);
  constructor(refusal: C | RefusalRef<C>, args?: RefusalArgs<C>) {
    const ref = typeof refusal === 'string' ? { code: refusal, args } : (refusal as { code: C; args?: RefusalArgs<C> });
    super(sayRefusal('ru', ref));
    this.code = ref.code;
    this.args = ref.args as RefusalArgs<C>;
  }
}

/** A domain error as a reader of the language reads it. */
export const sayError = (err: DomainError, language: Language): string => sayRefusal(language, err);

/** The thing asked for does not exist (or is not the caller's to see). */
export class NotFound<C extends RefusalCode = RefusalCode> extends DomainError<C> {
  override readonly name = 'NotFound';
}

/** The request is valid but the current state refuses it: a past session, a duplicate booking, a thing still in use. */
export class Conflict<C extends RefusalCode = RefusalCode> extends DomainError<C> {
  override readonly name = 'Conflict';
}

/** The input is refused by a rule the schema cannot express: a wrong password, an expired token. */
export class Invalid<C extends RefusalCode = RefusalCode> extends DomainError<C> {
  override readonly name = 'Invalid';
}

/** The caller may not do this. */
export class Forbidden<C extends RefusalCode = RefusalCode> extends DomainError<C> {
  override readonly name = 'Forbidden';
}

/** Too many attempts in a short time: the caller should wait. */
export class TooManyRequests<C extends RefusalCode = RefusalCode> extends DomainError<C> {
  override readonly name = 'TooManyRequests';
}

/** The input is missing something only the domain knows is required (a customer's consent). */
export class Unprocessable<C extends RefusalCode = RefusalCode> extends DomainError<C> {
  override readonly name = 'Unprocessable';
}

/** A service the request needs (Telegram) cannot answer now: the caller should try again shortly. */
export class Unavailable<C extends RefusalCode = RefusalCode> extends DomainError<C> {
  override readonly name = 'Unavailable';
}
