import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * helmet's security headers on every answer, worked out once at start: @fastify/helmet built helmet's
 * middleware again for every request (parsing the Content-Security-Policy's directives each time), a
 * twentieth of a booking's CPU. Nothing here depends on the request (no nonces).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  // HSTS is set below, over https only.
  const headers = headersOf({ ...options, strictTransportSecurity: false } as HelmetOptions);
  app.addHook('onRequest', (req, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    // Over plain http HSTS means nothing and would pin a local address to https.
    if (req.protocol === 'https') reply.raw.setHeader('strict-transport-security', HSTS);
    done();
  });
}

/** The headers helmet's middleware sets, read by running it once on a stand-in response. */
function headersOf(options: HelmetOptions): [string, string][] {
  const set = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string) => set.set(name.toLowerCase(), value),
    removeHeader: (name: string) => set.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return [...set];
}
