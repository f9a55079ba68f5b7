/** An error about the HTTP exchange itself (authentication, a missing bot): answered with its status and `{"detail": …}`. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly detail: string,
  ) {
    super(detail);
  }
}
