import { isRefusalCode, sayRefusal, type RefusalCode, type RefusalRef } from '../contract/texts/refusal';

/**
 * An error about the HTTP exchange itself (authentication, a missing bot): answered with its status and
 * `{"detail": …}`. `detail` is a refusal (a code, said in the caller's language) or the exchange's own text.
 */
export class HttpError extends Error {
  readonly refusal: { code: RefusalCode; args?: unknown } | undefined;
  readonly detail: string;
  constructor(
    public readonly statusCode: number,
    detail: string | RefusalRef,
  ) {
    const refusal: { code: RefusalCode; args?: unknown } | undefined =
      typeof detail !== 'string' ? detail : isRefusalCode(detail) ? { code: detail } : undefined;
    const text = refusal ? sayRefusal('ru', refusal) : (detail as string);
    super(text);
    this.refusal = refusal;
    this.detail = text;
  }
}
