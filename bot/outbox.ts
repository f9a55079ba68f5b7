/*
 * The outbox: delivery of the notification rows that core/ writes in the transaction of each change.
 * Its parts are in bot/delivery/: the worker (worker.ts), the pace of Telegram's limits (pacer.ts, pure),
 * the claims on the database with the one-sender lock of PostgreSQL (claims.ts), and the Bot API calls
 * (transport.ts).
 */
export {
  BULK_KINDS,
  DEFAULT_OUTBOX_OPTIONS,
  SENDER_LOG,
  SENDER_STOPPED_LOG,
  backoffMs,
  createOutbox,
  type Outbox,
  type OutboxDeps,
  type OutboxOptions,
} from './delivery/worker';
export {
  callsOf,
  type OutboxCall,
  type OutboxMethod,
  type RenderedMessage,
  type SendResult,
} from './delivery/transport';
export { systemClock, type Clock } from './delivery/clock';
