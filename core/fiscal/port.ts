import type { EnvironmentParameters, InvoiceRequest, InvoiceResult, PfrStatus } from './protocol';

/*
 * The fiscal port: what the product asks of a fiscal device, whatever it is. The `lpfr` adapter
 * speaks the TaxCore ESIR ↔ PFR protocol v3 over HTTP (lpfr.ts); `manual` has no device (staff type
 * the receipt number); `off` fiscalizes nothing.
 */
export interface FiscalPort {
  /** `GET /api/v3/attention`: true when the PFR answers. */
  attention(): Promise<boolean>;
  status(): Promise<PfrStatus>;
  /** `POST /api/v3/pin`: the PFR's status code (`0100` accepted). */
  pin(pin: string): Promise<string>;
  environment(): Promise<EnvironmentParameters>;
  /** `POST /api/v3/invoices` with `RequestId`: the same id for every attempt of one receipt. */
  issue(requestId: string, body: InvoiceRequest): Promise<InvoiceResult>;
  /** `GET /api/v3/invoices/{requestId}`: the receipt of an earlier request, or null when the PFR has none. */
  lookup(requestId: string): Promise<InvoiceResult | null>;
}

/** The PFR did not answer in time, could not be reached or answered 5xx: the receipt waits and is retried. */
export class FiscalUnreachable extends Error {
  readonly kind = 'unreachable' as const;
  /** True when the request may have reached the PFR (a timeout after sending): look it up before sending again. */
  constructor(
    message: string,
    readonly maybeSent: boolean,
  ) {
    super(message);
  }
}

/** The PFR needs its PIN (the security element is locked): receipts wait until someone enters it. */
export class FiscalPinRequired extends Error {
  readonly kind = 'pin' as const;
}

/** The PFR refused the request (4xx with its error codes): retrying the same body cannot help. */
export class FiscalRefused extends Error {
  readonly kind = 'refused' as const;
  constructor(
    message: string,
    /** The protocol's error codes per field, e.g. `{ buyerId: ['2806'] }`. */
    readonly errors: Record<string, string[]>,
  ) {
    super(message);
  }
}
