import { FiscalPinRequired, FiscalRefused, FiscalUnreachable, type FiscalPort } from './port';
import {
  PFR_CODES,
  type EnvironmentParameters,
  type InvoiceRequest,
  type InvoiceResult,
  type PfrErrorBody,
  type PfrStatus,
} from './protocol';

/*
 * The `lpfr` adapter: the TaxCore ESIR ↔ PFR protocol v3 over plain HTTP to the studio's L-PFR (or a
 * V-PFR behind a local proxy that holds the studio's certificate). Every failure becomes one of the
 * port's three errors, so the sender decides by kind: wait, look the request up, or give up.
 * Nothing here logs; the PIN goes only into the body of `POST /api/v3/pin`.
 */

export interface LpfrOptions {
  /** The PFR's base URL, e.g. `http://127.0.0.1:7555`. */
  url: string;
  /** The whole exchange, answer included. */
  timeoutMs?: number;
  /** `Accept-Language`: the language of the journal and messages. */
  language?: string;
  fetch?: typeof fetch;
}

/** Errors raised before the request left: nothing can have reached the PFR. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_INVALID_URL',
]);

/** Codes that say the device cannot sign right now (no card, audit pending): the receipt waits. */
const DEVICE_NOT_READY = new Set<string>([
  PFR_CODES.secureElementMissing,
  PFR_CODES.auditRequired,
  PFR_CODES.cardLocked,
]);

const codeOf = (err: unknown): string | undefined => {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
};

/** A 4xx body's codes per field: the JSON model state, or a bare code as some L-PFRs send. */
function errorsOf(text: string): { message: string; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  let message = '';
  try {
    const body = JSON.parse(text) as PfrErrorBody | string;
    if (typeof body === 'string') errors[''] = [body];
    else {
      message = typeof body.message === 'string' ? body.message : '';
      for (const entry of body.modelState ?? []) {
        errors[entry.property ?? ''] = [...(errors[entry.property ?? ''] ?? []), ...(entry.errors ?? []).map(String)];
      }
    }
  } catch {
    const codes = text.match(/\b\d{4}\b/g);
    if (codes) errors[''] = codes;
    message = text.trim().slice(0, 200);
  }
  return { message, errors };
}

export function createLpfr({
  url,
  timeoutMs = 10_000,
  language = 'sr-Cyrl-RS',
  fetch: doFetch = fetch,
}: LpfrOptions): FiscalPort {
  const base = url.replace(/\/+$/, '');

  /** One exchange; the timer runs until the whole answer is read. */
  async function exchange(
    method: 'GET' | 'POST',
    path: string,
    opts: { body?: unknown; requestId?: string } = {},
  ): Promise<{ status: number; text: string }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': language };
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.requestId) headers.RequestId = opts.requestId;
    // A GET changes nothing: whether it arrived does not matter to the caller.
    const mayHaveActed = method === 'POST';
    let stage: 'connecting' | 'reading' = 'connecting';
    try {
      const res = await doFetch(`${base}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: controller.signal,
      });
      stage = 'reading';
      return { status: res.status, text: await res.text() };
    } catch (err) {
      if (controller.signal.aborted)
        throw new FiscalUnreachable(`PFR не ответил за ${timeoutMs} мс (${method} ${path})`, mayHaveActed);
      const code = codeOf(err);
      const sent = stage === 'reading' || !NOT_SENT.has(code ?? '');
      throw new FiscalUnreachable(`PFR недоступен (${method} ${path}): ${code ?? String(err)}`, mayHaveActed && sent);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The answer's JSON (null for a 404 when `orNull`), or the port's error for what the PFR said instead. */
  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    opts: { body?: unknown; requestId?: string; orNull?: boolean } = {},
  ): Promise<T> {
    const { status, text } = await exchange(method, path, opts);
    const mayHaveActed = method === 'POST';
    if (status === 404 && opts.orNull) return null as T;
    if (status >= 200 && status < 300) {
      try {
        return JSON.parse(text) as T;
      } catch {
        // A garbled answer to an invoice may still be a signed receipt: look it up before sending again.
        throw new FiscalUnreachable(`PFR ответил не JSON (${method} ${path})`, mayHaveActed);
      }
    }
    if (status >= 500) throw new FiscalUnreachable(`PFR ответил ${status} (${method} ${path})`, mayHaveActed);
    const { message, errors } = errorsOf(text);
    const codes = Object.values(errors).flat();
    if (codes.includes(PFR_CODES.pinRequired)) throw new FiscalPinRequired('PFR ждёт PIN-код');
    const notReady = codes.find((c) => DEVICE_NOT_READY.has(c));
    if (notReady) throw new FiscalUnreachable(`PFR не может подписать сейчас: ${notReady}`, false);
    const list = Object.entries(errors).map(([field, c]) => (field ? `${field}: ${c.join(', ')}` : c.join(', ')));
    throw new FiscalRefused(
      `PFR отклонил запрос (${status}${message ? `, ${message}` : ''}): ${list.join('; ') || 'без кодов'}`,
      errors,
    );
  }

  return {
    async attention() {
      try {
        const { status } = await exchange('GET', '/api/v3/attention');
        return status >= 200 && status < 300;
      } catch {
        return false;
      }
    },
    status: () => call<PfrStatus>('GET', '/api/v3/status'),
    environment: () => call<EnvironmentParameters>('GET', '/api/v3/environment-parameters'),
    async pin(pin) {
      // The PFR answers a status code (0100 accepted, 2100 wrong, 2110 locked…), as JSON or plain text, 200 or 4xx.
      const { status, text } = await exchange('POST', '/api/v3/pin', { body: pin });
      if (status >= 500) throw new FiscalUnreachable(`PFR ответил ${status} (POST /api/v3/pin)`, false);
      const code = /\d{4}/.exec(text)?.[0];
      if (!code) throw new FiscalUnreachable(`PFR не назвал код ответа на PIN (${status})`, false);
      return code;
    },
    issue: (requestId, body: InvoiceRequest) => call<InvoiceResult>('POST', '/api/v3/invoices', { body, requestId }),
    lookup: (requestId) =>
      call<InvoiceResult | null>('GET', `/api/v3/invoices/${encodeURIComponent(requestId)}`, { orNull: true }),
  };
}
