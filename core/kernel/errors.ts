/**
 * What the domain refuses, with the Russian text the user reads. The adapters choose how to say
 * it: the HTTP server maps each class to a status (server/plugins/errors.ts), the bot replies with
 * the text.
 */
export class DomainError extends Error {
  override readonly name: string = 'DomainError';
  /** A refusal whose text shows values carries them, so it can be said in the customer's language too. */
  constructor(
    message: string,
    readonly texts?: RefusalTexts,
  ) {
    super(message);
  }
}

/** The catalogue key of a refusal with values, and the values (core/language/api-texts). */
export interface RefusalTexts {
  key: 'deadline';
  args: [hours: number, contact: string];
}

/** The thing asked for does not exist (or is not the caller's to see). */
export class NotFound extends DomainError {
  override readonly name = 'NotFound';
}

/** The request is valid but the current state refuses it: a past session, a duplicate booking, a thing still in use. */
export class Conflict extends DomainError {
  override readonly name = 'Conflict';
}

/** The input is refused by a rule the schema cannot express: a wrong password, an expired token. */
export class Invalid extends DomainError {
  override readonly name = 'Invalid';
}

/** The caller may not do this. */
export class Forbidden extends DomainError {
  override readonly name = 'Forbidden';
}

/** Too many attempts in a short time: the caller should wait. */
export class TooManyRequests extends DomainError {
  override readonly name = 'TooManyRequests';
}

/** The input is missing something only the domain knows is required (a customer's consent). */
export class Unprocessable extends DomainError {
  override readonly name = 'Unprocessable';
}
