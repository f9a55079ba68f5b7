import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Api } from 'grammy';
import type { TestApp } from '../helpers/app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { startFakeTelegram, TELEGRAM_LIMITS, type FakeCall, type FakeTelegram } from '../helpers/fake-telegram';
import { enqueueNotifications, listNotifications } from '../../db/repositories/notifications';
import { createOutbox, type Outbox, type OutboxOptions } from '../../bot/outbox';
import type { Clock } from '../../bot/delivery/clock';
import { botTestApp, quietLog, SESSION_DATE } from './setup';

/** The parts of the outbox tests at Telegram's pace: the fake answers 429 as Telegram does. */
export interface OutboxApp {
  fake: FakeTelegram;
  t: TestApp;
  /** `count` rows to one chat; each message's text is its number (from `first`), so the order shows. */
  enqueue(chatId: number, count: number, opts?: { first?: number; kind?: string }): Promise<void>;
  /**
   * A worker in this process, stopped after the file; on `clock` when given (its sends then hold the
   * clock until the fake answers). `answered` is told of each answered send before the worker hears of it.
   */
  worker(
    options?: Partial<OutboxOptions>,
    opts?: { clock?: Clock; answered?: (chatId: number) => void; permit?: () => Promise<void> },
  ): Outbox;
  /** The workers started so far. */
  workers: Outbox[];
}

/**
 * One server with its bot for a file of outbox tests, on a fake Bot API with Telegram's flood limits
 * that reads the time from `fakeTime` (a test's virtual clock, or the real one).
 */
export function useOutboxApp(fakeTime: { now(): number } = { now: () => Date.now() }): OutboxApp {
  let fake: FakeTelegram;
  let t: TestApp;
  /** A real notification payload (from a booking), copied into the rows the tests write. */
  let template: { record: { people_count: number } };
  const workers: Outbox[] = [];

  beforeAll(async () => {
    fake = await startFakeTelegram({ limits: TELEGRAM_LIMITS, clock: fakeTime });
    t = await botTestApp(fake);
    const staff = await t.auth();
    const { schedule } = await createSession(t.app, staff, { date: SESSION_DATE });
    const c = telegramUser();
    await book(t.app, c, bookingPayload(schedule.id));
    const [row] = await listNotifications(t.database.db, { chat_id: c.id });
    template = JSON.parse(row.payload) as typeof template;
    await t.telegram!.outbox.drain();
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await t.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  return {
    get fake() {
      return fake;
    },
    get t() {
      return t;
    },
    workers,
    async enqueue(chatId, count, opts = {}) {
      await enqueueNotifications(
        t.database.db,
        Array.from({ length: count }, (_, i) => ({
          chat_id: chatId,
          kind: opts.kind ?? 'record.booked',
          payload: { ...template, record: { ...template.record, people_count: (opts.first ?? 1) + i } },
        })),
      );
    },
    worker(options = {}, opts = {}) {
      const api = new Api(t.config.botToken!, { apiRoot: fake.url });
      const sendMessage: typeof api.raw.sendMessage = (args, signal) =>
        api.raw.sendMessage(args, signal).finally(() => opts.answered?.(Number(args.chat_id)));
      const w = createOutbox({
        database: t.database,
        api: opts.clock ? { ...api.raw, sendMessage } : api.raw,
        log: quietLog,
        options: { pollIntervalMs: 50, ...options },
        render: (n) => ({ text: 'record' in n.payload ? String(n.payload.record.people_count) : '' }),
        clock: opts.clock,
        permit: opts.permit,
      });
      workers.push(w);
      return w;
    },
  };
}

export const texts = (calls: FakeCall[]) => calls.map((c) => c.params.text);
export const gaps = (calls: FakeCall[]) => calls.slice(1).map((c, i) => c.at - calls[i].at);
export const chats = (n: number) => Array.from({ length: n }, () => telegramUser().id);

/** tests/bot/outbox-instance.ts as a running server's worker, in its own process (to be killed). */
export function startInstance(t: TestApp, options: Partial<OutboxOptions>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/bot/outbox-instance.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: t.config.databaseUrl,
      BOT_TOKEN: t.config.botToken,
      TELEGRAM_API_ROOT: t.config.telegramApiRoot,
      PUBLIC_URL: t.config.publicUrl,
      SECRET_KEY: t.config.secretKey,
      DATA_DIR: t.config.dataDir,
      OUTBOX_SERVE: '1',
      OUTBOX_OPTIONS: JSON.stringify(options),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`instance exited ${code}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    ready,
    go: () => child.stdin.write('go\n'),
    kill: () => child.kill('SIGKILL'),
    /** SIGTERM, as a server is stopped; resolves when the process has exited. */
    stop: async () => {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
  };
}
