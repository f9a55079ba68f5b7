import crypto from 'node:crypto';
import { bool, nowIso, type Database, type Executor } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import {
  anyDueFiscalReceipt,
  claimDueFiscalReceipt,
  extendFiscalClaim,
  fiscalQueueCounts,
  getFiscalHealthRow,
  markFiscalIssued,
  markFiscalRefused,
  releaseFiscalClaim,
  startFiscalAttempt,
  takeFiscalPinTurn,
  updateFiscalHealth,
  type FiscalReceiptRow,
} from '../../db/repositories/fiscal';
import { listDeciders } from '../../db/repositories/min-people';
import { FiscalPinRequired, FiscalRefused, FiscalUnreachable, type FiscalPort } from '../fiscal/port';
import { PFR_CODES, type InvoiceRequest, type InvoiceResult, type PfrStatus } from '../fiscal/protocol';
import { FiscalLabelError, FiscalNotReady, requestFor } from '../fiscal/receipts';
import { getFiscalSettings } from '../fiscal/settings';
import type { Log } from '../kernel/log';
import type { StaffFiscalPayload } from '../notify/notifications';
import { publish } from '../notify/publish';
import { tellReceipt } from '../receipts/tell';

/*
 * The fiscal sender: delivers the fiscal outbox (`fiscal_receipts` in mode lpfr) to the studio's PFR,
 * never losing a receipt and never issuing one twice.
 *
 * - One row at a time per instance, in id order, claimed with a lease (claimed_by, locked_until), so
 *   two instances never send one row at once; a receipt that refers to another waits for it.
 * - Before each `POST /invoices` the attempt is written: the body built at the first attempt is frozen
 *   in `request` (every retry sends exactly it, with the row's RequestId) and the lease is renewed for
 *   the send, which the PFR's timeout bounds. A row attempted before (a timeout after sending, a 5xx, a
 *   process killed mid-send) is looked up (`GET /invoices/{requestId}`) before it is sent again: what
 *   the PFR has is stored instead.
 * - PIN required: nothing is sent until the PFR says the PIN is in (checked every few seconds); the
 *   configured PIN (FISCAL_PFR_PIN) is entered once per outage, never again once refused (wrong PINs
 *   lock the card). Unreachable: everything waits with a capped backoff. Staff hear of an outage once
 *   (owners and managers with Telegram), the PIN at once, unreachable only once it lasts; the outage
 *   ends when the PFR answers a receipt again, and they hear that too. A refused receipt leaves the
 *   queue with the PFR's codes and is told once.
 * - Nothing here runs in a booking's transaction: the booking only wrote the row.
 */

export interface FiscalSenderOptions {
  /** How often to look for due rows while idle. */
  pollMs: number;
  /** The PFR adapter's timeout: a send ends within it. */
  timeoutMs: number;
  /** A claim's lease, renewed before each send: longer than a send, so a crashed instance's row in flight is over before anyone takes it. */
  leaseMs: number;
  heartbeatMs: number;
  /** Backoff while the PFR is unreachable: min(maxDelayMs, baseDelayMs · 2^(n−1)) after the n-th failure in a row. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Staff hear that the PFR is unreachable only once an outage lasts this long (one blip pages nobody). */
  unreachableAlertMs: number;
  /** While the PIN is required: how often the PFR's status is asked again. */
  pinCheckMs: number;
  /** The PFR's tax rates (for new bodies) are asked again after this long. */
  ratesMaxAgeMs: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

export function fiscalSenderOptions(o: Partial<FiscalSenderOptions> = {}): FiscalSenderOptions {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const leaseMs = o.leaseMs ?? 2 * timeoutMs + 2_000;
  return {
    pollMs: 1_000,
    baseDelayMs: 2_000,
    maxDelayMs: 60_000,
    unreachableAlertMs: 120_000,
    pinCheckMs: 5_000,
    ratesMaxAgeMs: 60_000,
    ...o,
    timeoutMs,
    leaseMs,
    heartbeatMs: o.heartbeatMs ?? Math.max(100, Math.floor(leaseMs / 4)),
  };
}

export interface FiscalSenderDeps {
  database: Database;
  /** The PFR at a URL from the fiscal settings (main.ts: the lpfr adapter with the configured timeout). */
  portFor(url: string): FiscalPort;
  log: Log;
  /** FISCAL_PFR_PIN: entered by the sender when the PFR asks for it; none: an owner enters it. */
  pin?: string;
  options?: Partial<FiscalSenderOptions>;
}

export interface FiscalSender {
  start(): void;
  /** Stops claiming; a send in flight finishes and its answer is stored. */
  stop(): Promise<void>;
  /** One step: sends (or looks up) one due row when the PFR may be asked; returns how many rows it handled (0 or 1). */
  runOnce(): Promise<number>;
  /** Handles due rows until none is left or the PFR cannot take them now. */
  drain(): Promise<number>;
  /** Looks for due rows now (a receipt was just written, a PIN was entered). */
  wake(): void;
}

/** The running senders of this process: a PIN entered through the API wakes them. */
const running = new Set<FiscalSender>();

export const backoffMs = (n: number, o: Pick<FiscalSenderOptions, 'baseDelayMs' | 'maxDelayMs'>) =>
  Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** Math.max(0, n - 1));

/** What the admin shows of the PFR: its state as the sender saw it last, and the lpfr receipts' queue. */
export interface FiscalHealth {
  state: 'ok' | 'pin_required' | 'unreachable';
  /** When that state began (an outage: its first failure); null before any. */
  since: string | null;
  /** What the PFR (or the adapter) said last in an outage. */
  last_error: string | null;
  /** Receipts waiting for the PFR. */
  waiting: number;
  /** Refunds waiting for the buyer's ID before they can be sent. */
  needs_buyer: number;
  /** Receipts the PFR refused (for staff to look at). */
  refused: number;
  oldest_waiting_at: string | null;
}

export async function fiscalHealth(db: Executor): Promise<FiscalHealth> {
  const [h, q] = await Promise.all([getFiscalHealthRow(db), fiscalQueueCounts(db)]);
  return { state: h.state, since: h.since, last_error: h.last_error, ...q };
}

/**
 * Enters a PIN an owner typed (`POST /fiscal/pin`); answers the PFR's code (`0100` accepted). The
 * senders of this process look at once; those of other instances within their PIN check.
 */
export async function enterPin(database: Database, port: FiscalPort, pin: string): Promise<string> {
  const code = await port.pin(pin);
  const accepted = code === PFR_CODES.pinOk;
  await updateFiscalHealth(database.db, { last_error: accepted ? null : `PFR не принял PIN-код (${code})` });
  if (accepted) for (const s of running) s.wake();
  return code;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The PFR's answer as the row keeps it (whole dinars, as every amount in the product). */
const answerOf = (r: InvoiceResult) => ({
  invoice_number: r.invoiceNumber,
  invoice_counter: r.invoiceCounter,
  sdc_time: new Date(r.sdcDateTime).toISOString(),
  verification_url: r.verificationUrl,
  verification_qr: r.verificationQRCode,
  journal: r.journal,
  total_amount: Math.round(r.totalAmount),
  issued_at: nowIso(),
});

/** The PFR refused to look a request up: whether it has the receipt is unknown, so it is not sent again. */
class LookupRefused extends Error {}

async function lookup(p: FiscalPort, requestId: string): Promise<InvoiceResult | null> {
  try {
    return await p.lookup(requestId);
  } catch (err) {
    if (err instanceof FiscalRefused)
      throw new LookupRefused(`PFR не ответил, выдан ли уже этот чек (${refusalText(err)}); повторно не отправлен`);
    throw err;
  }
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The PFR's codes per field, as staff read them in last_error and the alert. */
const refusalText = (err: FiscalRefused) => {
  const list = Object.entries(err.errors).map(([field, codes]) =>
    field ? `${field}: ${codes.join(', ')}` : codes.join(', '),
  );
  return list.length > 0 ? list.join('; ') : err.message;
};

export function createFiscalSender(deps: FiscalSenderDeps): FiscalSender {
  const o = fiscalSenderOptions(deps.options);
  const { database, log } = deps;
  const db = database.db;
  /** This sender's name on its claims: a restarted process is another worker. */
  const worker = `${process.pid}-${crypto.randomUUID()}`;

  let stopped = true;
  let loopDone: Promise<void> = Promise.resolve();
  let tail: Promise<unknown> = Promise.resolve();
  /** Unreachable: failures in a row, and nothing is tried before `pausedUntil`. */
  let failures = 0;
  let pausedUntil = 0;
  /** PIN required: nothing is sent until the PFR's status says otherwise, asked again at `nextPinCheck`. */
  let pinWait = false;
  let nextPinCheck = 0;
  let rates: { url: string; at: number; status: PfrStatus } | null = null;
  let port: { url: string; port: FiscalPort } | null = null;

  const naps = new Set<() => void>();
  function nap(ms: number) {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        naps.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      naps.add(done);
    });
  }
  const wake = () => {
    nextPinCheck = 0;
    for (const done of [...naps]) done();
  };

  /** The port for the studio's PFR when the fiscal mode is lpfr; null otherwise (rows then wait). */
  async function currentPort(): Promise<{ url: string; port: FiscalPort } | null> {
    const settings = await getFiscalSettings(db);
    if (settings.fiscal_mode !== 'lpfr' || !settings.fiscal_pfr_url) return null;
    if (port?.url !== settings.fiscal_pfr_url)
      port = { url: settings.fiscal_pfr_url, port: deps.portFor(settings.fiscal_pfr_url) };
    return port;
  }

  /** The PFR's status (for its tax rates), asked again after ratesMaxAgeMs; PIN required throws. */
  async function statusFor(p: { url: string; port: FiscalPort }): Promise<PfrStatus> {
    if (!rates || rates.url !== p.url || Date.now() - rates.at > o.ratesMaxAgeMs)
      rates = { url: p.url, at: Date.now(), status: await p.port.status() };
    if (rates.status.isPinRequired) {
      rates = null;
      throw new FiscalPinRequired('PFR ждёт PIN-код');
    }
    return rates.status;
  }

  /** A write that must not be lost (an answer the PFR gave); if it is, the row is looked up next time. */
  async function persist<T>(what: string, id: number, write: () => Promise<T>): Promise<T | undefined> {
    for (let i = 0; ; i++) {
      try {
        return await write();
      } catch (err) {
        if (i >= 4) {
          log.error({ err, fiscal_receipt: id }, `fiscal: could not record ${what}`);
          return undefined;
        }
        await new Promise((r) => setTimeout(r, 200 * 2 ** i));
      }
    }
  }

  /** Tells the owners and managers linked to Telegram, once per key, in `trx`. */
  async function alert(trx: Executor, payload: Omit<StaffFiscalPayload, 'waiting'>, key: string) {
    const { waiting } = await fiscalQueueCounts(trx);
    const staff = await listDeciders(trx);
    await publish(
      trx,
      staff.map((s) => ({
        type: 'message' as const,
        chat_id: s.chat_id,
        notification: { kind: 'staff.fiscal' as const, payload: { ...payload, waiting } },
        dedupe_key: `fiscal:${key}:${s.user_id}`,
      })),
    );
  }

  /**
   * The PFR fails: its state and error kept. Staff are told once per state of an outage (the PIN at
   * once, unreachable only once it lasts), so a PFR back from an outage but locked is told again: the
   * PIN is what they must do now. `quiet`: recorded, told to nobody (another instance is entering the
   * configured PIN).
   */
  async function sawProblem(
    kind: 'pin_required' | 'unreachable',
    error: string,
    opts: { pinRefused?: boolean; quiet?: boolean } = {},
  ) {
    await withWriteTransaction(database, async (trx) => {
      const h = await getFiscalHealthRow(trx, { forUpdate: database.dialect === 'postgres' });
      const now = Date.now();
      const ongoing = h.state !== 'ok';
      const same = ongoing && h.state === kind && h.since !== null;
      const since = same ? h.since! : iso(now);
      const alerted = same && bool(h.alerted);
      const pinRefused = Boolean(opts.pinRefused) || bool(h.pin_refused);
      const tell =
        !opts.quiet && !alerted && (kind === 'pin_required' || now - Date.parse(since) >= o.unreachableAlertMs);
      await updateFiscalHealth(trx, {
        state: kind,
        since,
        alerted: alerted || tell ? 1 : 0,
        outage_alerted: (ongoing && bool(h.outage_alerted)) || tell ? 1 : 0,
        last_error: error,
        ...(opts.pinRefused && { pin_refused: 1 }),
      });
      if (tell) {
        log.warn({ state: kind, since }, 'fiscal: staff told of the PFR outage');
        await alert(
          trx,
          { event: kind, ...(kind === 'pin_required' && pinRefused && { pin_refused: true }) },
          `${kind}:${since}`,
        );
      }
    });
  }

  /** The PFR answered: an outage is over (staff who were told of it hear so). */
  async function sawAnswer() {
    failures = 0;
    pausedUntil = 0;
    pinWait = false;
    const h = await getFiscalHealthRow(db);
    if (h.state === 'ok' && !bool(h.pin_refused)) return;
    await withWriteTransaction(database, async (trx) => {
      const locked = await getFiscalHealthRow(trx, { forUpdate: database.dialect === 'postgres' });
      if (locked.state === 'ok' && !bool(locked.pin_refused)) return;
      await updateFiscalHealth(trx, {
        state: 'ok',
        since: nowIso(),
        alerted: 0,
        outage_alerted: 0,
        last_error: null,
        pin_refused: 0,
        pin_attempt_at: null,
      });
      if (locked.state !== 'ok' && bool(locked.outage_alerted)) {
        log.info({ was: locked.state, since: locked.since }, 'fiscal: the PFR answers again');
        await alert(trx, { event: 'recovered' }, `recovered:${locked.since}`);
      }
    });
  }

  /**
   * The PFR wants its PIN: the configured one is entered (by one instance, once per outage); true when
   * the PFR took it. Otherwise staff are told and the sender waits.
   */
  async function pinRequired(p: FiscalPort, error: string): Promise<boolean> {
    rates = null;
    pinWait = true;
    nextPinCheck = Date.now() + o.pinCheckMs;
    if (!deps.pin) {
      await sawProblem('pin_required', error);
      return false;
    }
    const now = Date.now();
    if (!(await takeFiscalPinTurn(db, iso(now), iso(now - o.pinCheckMs)))) {
      // Refused before in this outage: staff must enter it. Otherwise another instance is entering it now.
      const refused = bool((await getFiscalHealthRow(db)).pin_refused);
      await sawProblem('pin_required', error, { quiet: !refused });
      return false;
    }
    let code: string | null = null;
    try {
      code = await p.pin(deps.pin);
    } catch (err) {
      log.warn({ err }, 'fiscal: could not enter the configured PIN');
    }
    if (code === PFR_CODES.pinOk) {
      log.info({}, 'fiscal: the configured PIN was entered');
      pinWait = false;
      return true;
    }
    if (code === null) {
      // Tried again at the next PIN check.
      await sawProblem('pin_required', error, { quiet: true });
      return false;
    }
    log.error({ code }, 'fiscal: the PFR refused the configured PIN; it is not entered again in this outage');
    await sawProblem('pin_required', `PFR не принял PIN-код из настроек сервера (${code})`, { pinRefused: true });
    return false;
  }

  /** While the PIN is required: has it been entered (here, through the API, or on the device)? */
  async function checkPin(p: FiscalPort): Promise<boolean> {
    nextPinCheck = Date.now() + o.pinCheckMs;
    try {
      const status = await p.status();
      if (!status.isPinRequired) {
        pinWait = false;
        rates = { url: port!.url, at: Date.now(), status };
        // Nothing waiting means no send will end the outage: the PFR's word does.
        if ((await fiscalQueueCounts(db)).waiting === 0) await sawAnswer();
        return true;
      }
      return await pinRequired(p, 'PFR ждёт PIN-код');
    } catch (err) {
      log.warn({ err }, 'fiscal: the PFR did not answer the status while waiting for the PIN');
      return false;
    }
  }

  /**
   * Keeps the PFR's answer and, in the same transaction, tells the receipt's customer (once: only the
   * write that issues the row tells). Should telling fail, the answer is kept alone: the receipt matters.
   */
  async function store(id: number, answer: ReturnType<typeof answerOf>) {
    try {
      await withWriteTransaction(database, async (trx) => {
        const issued = await markFiscalIssued(trx, id, answer);
        if (issued) await tellReceipt(trx, issued);
      });
    } catch (err) {
      log.error(
        { err, fiscal_receipt: id },
        'fiscal: could not store the receipt with its customer message; storing it alone',
      );
      await persist('an issued receipt', id, () => markFiscalIssued(db, id, answer));
    }
  }

  /** Sends (or first looks up) one claimed row; the claim is given back or finished before it returns. */
  async function handle(row: FiscalReceiptRow, p: FiscalPort): Promise<void> {
    let held = true;
    const beat = setInterval(() => {
      extendFiscalClaim(db, row.id, worker, iso(Date.now() + o.leaseMs)).then(
        (ok) => {
          if (!ok && held) log.warn({ fiscal_receipt: row.id }, 'fiscal: lost the claim of a receipt');
        },
        (err: unknown) => log.warn({ err, fiscal_receipt: row.id }, 'fiscal: could not extend a claim'),
      );
    }, o.heartbeatMs);
    try {
      let result: InvoiceResult | null = null;
      // Attempted before: the PFR may have it (a timeout after sending, a process killed mid-send).
      if (row.attempts > 0) result = await lookup(p, row.request_id);
      if (!result) {
        const body =
          row.request ??
          JSON.stringify(await requestFor(db, row, (await statusFor({ url: port!.url, port: p })).currentTaxRates));
        const now = Date.now();
        const started = await startFiscalAttempt(db, row.id, {
          worker,
          now: iso(now),
          leaseUntil: iso(now + o.leaseMs),
          request: body,
        });
        if (!started) {
          log.warn({ fiscal_receipt: row.id }, 'fiscal: the claim ran out before the send; left to its new holder');
          held = false;
          return;
        }
        result = await p.issue(row.request_id, JSON.parse(started.request!) as InvoiceRequest);
      }
      await store(row.id, answerOf(result));
      held = false;
      log.info({ fiscal_receipt: row.id, invoice_number: result.invoiceNumber }, 'fiscal: receipt issued');
      await sawAnswer();
    } catch (err) {
      if (err instanceof FiscalPinRequired) {
        await releaseFiscalClaim(db, row.id, worker, { error: err.message });
        held = false;
        // The configured PIN taken: the row is due again at once.
        if (await pinRequired(p, err.message)) wake();
      } else if (err instanceof FiscalUnreachable) {
        failures++;
        const delay = backoffMs(failures, o);
        pausedUntil = Date.now() + delay;
        log.warn(
          { fiscal_receipt: row.id, error: err.message, maybe_sent: err.maybeSent, retry_in_ms: delay },
          'fiscal: the PFR did not answer; the receipt waits',
        );
        await releaseFiscalClaim(db, row.id, worker, { nextAttemptAt: iso(pausedUntil), error: err.message });
        held = false;
        await sawProblem('unreachable', err.message);
      } else if (err instanceof FiscalRefused) {
        const text = refusalText(err);
        log.error({ fiscal_receipt: row.id, errors: err.errors }, 'fiscal: the PFR refused the receipt');
        await withWriteTransaction(database, async (trx) => {
          const refused = await markFiscalRefused(trx, row.id, text);
          if (refused)
            await alert(
              trx,
              {
                event: 'refused',
                receipt_id: refused.id,
                amount: refused.amount,
                transaction_type: refused.transaction_type,
                errors: text,
              },
              `refused:${refused.id}`,
            );
        });
        held = false;
        await sawAnswer();
      } else if (err instanceof FiscalNotReady) {
        // Its referent was issued and then not (it cannot be): back to the queue, due again at once.
        await releaseFiscalClaim(db, row.id, worker, { error: err.message });
        held = false;
      } else if (err instanceof FiscalLabelError || err instanceof LookupRefused) {
        // The studio's settings must change (a tax label), or the PFR will not say whether it has the
        // receipt (sending again could issue a second): the row waits, staff told once a day per problem.
        const delay = o.maxDelayMs;
        log.error({ fiscal_receipt: row.id, error: err.message }, 'fiscal: the receipt cannot be built');
        await releaseFiscalClaim(db, row.id, worker, { nextAttemptAt: iso(Date.now() + delay), error: err.message });
        held = false;
        const problem = crypto.createHash('sha256').update(err.message).digest('hex').slice(0, 16);
        await withWriteTransaction(database, (trx) =>
          alert(
            trx,
            {
              event: 'not_sent',
              receipt_id: row.id,
              amount: row.amount,
              transaction_type: row.transaction_type,
              errors: err.message,
            },
            `not_sent:${problem}:${nowIso().slice(0, 10)}`,
          ),
        );
      } else {
        // Not the PFR's doing (the database, say): the row waits and is tried again.
        const delay = backoffMs(Math.max(1, row.attempts), o);
        log.error({ err, fiscal_receipt: row.id, retry_in_ms: delay }, 'fiscal: could not send the receipt');
        await releaseFiscalClaim(db, row.id, worker, {
          nextAttemptAt: iso(Date.now() + delay),
          error: describe(err),
        }).catch((e: unknown) => log.warn({ err: e }, 'fiscal: could not give a claim back'));
        held = false;
      }
    } finally {
      held = false;
      clearInterval(beat);
    }
  }

  async function step(): Promise<number> {
    const now = Date.now();
    if (now < pausedUntil) return 0;
    if (!(await anyDueFiscalReceipt(db, iso(now)))) return 0;
    const current = await currentPort();
    if (!current) return 0;
    if (pinWait && (Date.now() < nextPinCheck || !(await checkPin(current.port)))) return 0;
    const claimArgs = { now: iso(Date.now()), leaseUntil: iso(Date.now() + o.leaseMs), worker };
    const row =
      database.dialect === 'postgres'
        ? await claimDueFiscalReceipt(db, 'postgres', claimArgs)
        : await withWriteTransaction(database, (trx) => claimDueFiscalReceipt(trx, 'sqlite', claimArgs));
    if (!row) return 0;
    await handle(row, current.port);
    return 1;
  }

  /** One step at a time per sender. */
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const p = tail.then(fn, fn);
    tail = p.catch(() => undefined);
    return p;
  }

  const runOnce = () => exclusive(step);

  async function loop() {
    while (!stopped) {
      let handled = 0;
      try {
        handled = await runOnce();
      } catch (err) {
        log.error({ err }, 'fiscal: poll failed');
      }
      if (stopped) break;
      if (handled === 0) {
        const until = Math.max(pausedUntil, pinWait ? nextPinCheck : 0) - Date.now();
        await nap(Math.min(o.pollMs, until > 0 ? until : o.pollMs));
      }
    }
  }

  const sender: FiscalSender = {
    start() {
      if (!stopped) return;
      stopped = false;
      running.add(sender);
      loopDone = loop();
    },
    async stop() {
      stopped = true;
      running.delete(sender);
      wake();
      await loopDone;
      await tail;
    },
    runOnce,
    async drain() {
      let total = 0;
      for (;;) {
        const n = await runOnce();
        if (n === 0) return total;
        total += n;
      }
    },
    wake,
  };
  return sender;
}
