import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { startFakeTelegram, TOO_MANY, type FakeTelegram } from '../helpers/fake-telegram';
import { bookingPayload, createSession } from '../helpers/factories';
import { tma } from '../helpers/telegram';
import { parseMetrics } from '../helpers/prometheus';
import { createScheduler } from '../../core/jobs/scheduler';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('GET /metrics without METRICS_TOKEN', () => {
  it('is off: 404 with a detail that says how to switch it on, and no metric', async () => {
    const t = await buildTestApp();
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Метрики выключены: задайте METRICS_TOKEN' });
      expect(res.body).not.toMatch(/process_cpu|outbox_pending/);
      expect(t.metrics).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let fake: FakeTelegram;
  let staff: { authorization: string };
  beforeAll(async () => {
    fake = await startFakeTelegram();
    t = await buildTestApp({ env: { ...fake.env, METRICS_TOKEN: TOKEN } });
    staff = await t.auth();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(res.body);
  };

  it('asks for the bearer token: 401 with a detail without it or with another one', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-token-0123456789' }, { authorization: TOKEN }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json().detail).toMatch(/токен метрик/);
    }
  });

  it('has every named series, in the Prometheus text format, with their types', async () => {
    const m = await scrape();
    const types = Object.fromEntries(m.families.map((f) => [f.name, f.type]));
    expect(types).toMatchObject({
      outbox_pending_messages: 'GAUGE',
      outbox_oldest_pending_age_seconds: 'GAUGE',
      telegram_sends_total: 'COUNTER',
      telegram_send_duration_seconds: 'HISTOGRAM',
      http_request_duration_seconds: 'HISTOGRAM',
      bookings: 'GAUGE',
      scheduler_job_runs_total: 'COUNTER',
      scheduler_job_failures_total: 'COUNTER',
      process_cpu_user_seconds_total: 'COUNTER',
      process_resident_memory_bytes: 'GAUGE',
      nodejs_eventloop_lag_seconds: 'GAUGE',
    });
    for (const result of ['ok', '429', 'failed']) expect(m.value('telegram_sends_total', { result })).toBe(0);
    for (const state of ['ACTIVE', 'QUEUED', 'CANCELLED']) expect(m.value('bookings', { state })).toBe(0);
  });

  it('moves with what happens: bookings, the outbox and its sends (ok, 429), requests by route, job runs and failures', async () => {
    const before = await scrape();
    const { schedule } = await createSession(t.app, staff, { capacity: 1 });
    for (const id of [501, 502]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/records/',
        headers: tma({ id }),
        payload: bookingPayload(schedule.id),
      });
      expect(res.statusCode).toBe(201);
    }
    await new Promise((r) => setTimeout(r, 1100)); // the oldest pending row ages by a second
    const booked = await scrape();
    expect(booked.value('bookings', { state: 'ACTIVE' })).toBe(1);
    expect(booked.value('bookings', { state: 'QUEUED' })).toBe(1);
    // Each booking wrote its confirmation to the outbox; nothing is delivered yet.
    expect(booked.value('outbox_pending_messages')).toBeGreaterThanOrEqual(2);
    expect(booked.value('outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(1);
    const route = { method: 'POST', route: '/api/v1/records/', status: '201' };
    expect(booked.count('http_request_duration_seconds', route)).toBe(
      (before.count('http_request_duration_seconds', route) ?? 0) + 2,
    );
    expect(booked.count('http_request_duration_seconds', { route: '/api/v1/schedule/', status: '201' })).toBe(1);

    // Telegram answers the first send with a 429, then takes everything.
    fake.failNext('sendMessage', TOO_MANY(1));
    await t.telegram!.outbox.drain();
    await new Promise((r) => setTimeout(r, 1100));
    await t.telegram!.outbox.drain();
    const sent = await scrape();
    expect(sent.value('outbox_pending_messages')).toBe(0);
    expect(sent.value('outbox_oldest_pending_age_seconds')).toBe(0);
    expect(sent.value('telegram_sends_total', { result: '429' })).toBe(1);
    expect(sent.value('telegram_sends_total', { result: 'ok' })).toBe(fake.messages().length);
    expect(sent.count('telegram_send_duration_seconds')).toBe(fake.messages().length + 1);

    await t.scheduler.runOnce();
    const failing = createScheduler({
      jobs: [{ name: 'broken', run: () => Promise.reject(new Error('boom')) }],
      log: { info() {}, warn() {}, error() {}, debug() {} },
      onJob: t.metrics!.onJob,
    });
    await failing.runOnce();
    const ran = await scrape();
    expect(ran.value('scheduler_job_runs_total', { job: 'reminders' })).toBe(1);
    expect(ran.value('scheduler_job_failures_total', { job: 'reminders' })).toBe(0);
    expect(ran.value('scheduler_job_runs_total', { job: 'broken' })).toBe(1);
    expect(ran.value('scheduler_job_failures_total', { job: 'broken' })).toBe(1);
  });
});
