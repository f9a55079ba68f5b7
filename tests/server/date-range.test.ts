import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangeBounds } from '../../contract';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSession } from '../helpers/factories';

// A bare day in a filter is the studio's day (BUSINESS_TIMEZONE), not UTC's: a class at 00:30 in
// Belgrade belongs to that date, though it is the evening before in UTC.

describe('date filters', () => {
  it('turn a bare day into the studio’s midnight to midnight, across a DST change too', () => {
    expect(rangeBounds({ from: '2026-11-30', to: '2026-11-30' }, 'Europe/Belgrade')).toEqual({
      from: '2026-11-29T23:00:00.000Z',
      to: '2026-11-30T23:00:00.000Z',
    });
    // 29 March 2026 has 23 hours in Belgrade.
    expect(rangeBounds({ from: '2026-03-29', to: '2026-03-29' }, 'Europe/Belgrade')).toEqual({
      from: '2026-03-28T23:00:00.000Z',
      to: '2026-03-29T22:00:00.000Z',
    });
    expect(rangeBounds({ from: '2026-11-30T10:00:00+01:00' }, 'Europe/Belgrade')).toEqual({
      from: '2026-11-30T09:00:00.000Z',
      to: undefined,
    });
  });

  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('History of one day lists the class at 00:30 that day, not the one at 23:30 the evening before', async () => {
    const staff = await t.auth();
    const early = (await createSession(t.app, staff)).schedule;
    const lateBefore = (await createSession(t.app, staff)).schedule;
    for (const [id, date] of [
      [early.id, '2025-11-30T00:30:00+01:00'],
      [lateBefore.id, '2025-11-29T23:30:00+01:00'],
    ] as const) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/schedule/${id}`,
        headers: staff,
        payload: { date },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await t.app.inject({
      url: '/api/v1/schedule/past?from=2025-11-30&to=2025-11-30',
      headers: staff,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: { id: number }[] }>().data.map((s) => s.id)).toEqual([early.id]);
  });
});
