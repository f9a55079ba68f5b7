import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';
import { allEndpoints, operationIds, type Access } from '../../contract/endpoints';
import { createClient, urlOf } from '../../contract/endpoints/client';
import { loginApi } from '../../contract/endpoints/login';
import { recordsApi } from '../../contract/endpoints/records';
import { scheduleApi } from '../../contract/endpoints/schedule';
import { usersApi } from '../../contract/endpoints/users';
import { workshopsApi } from '../../contract/endpoints/workshops';
import { giftsApi } from '../../contract/endpoints/gifts';

// The endpoint descriptions in contract/endpoints are what the server serves and documents, and
// what the front ends' client calls.

interface Operation {
  operationId?: string;
  summary: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
}

const SECURITY: Record<Access, Record<string, string[]>[]> = {
  public: [],
  staff: [{ bearer: [] }],
  customer: [{ bearer: [] }, { telegramInitData: [] }],
};
const REF = '#/components/schemas/';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the endpoint descriptions', () => {
  it('are the OpenAPI document: each operation once, with its access, summary, tag, parameters, schemas and errors', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, unknown> };
    }>();
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );
    // The document leaves out a trailing slash (the router ignores it).
    const keyOf = (e: (typeof allEndpoints)[number]) =>
      `${e.method} /api/v1${e.path.replace(/:(\w+)/g, '{$1}').replace(/\/$/, '')}`;
    expect(operations.map((o) => o.key).sort()).toEqual(allEndpoints.map(keyOf).sort());

    const problems: string[] = [];
    for (const e of allEndpoints) {
      const op = operations.find((o) => o.key === keyOf(e))!.op;
      const check = (what: string, actual: unknown, expected: unknown) => {
        if (JSON.stringify(actual) !== JSON.stringify(expected))
          problems.push(`${keyOf(e)} ${what}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
      };
      check('summary', op.summary, e.summary);
      check('operationId', op.operationId, operationIds.get(e));
      check('tags', op.tags, [e.tag]);
      check('security', op.security, SECURITY[e.access]);
      check(
        'path parameters',
        (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]),
      );
      for (const code of e.errors ?? []) if (!op.responses[code]) problems.push(`${keyOf(e)}: no ${code}`);
      const contentType = e.form ? 'application/x-www-form-urlencoded' : 'application/json';
      // A body's component is the schema's input side ("…Input" when it differs from the output).
      const body = op.requestBody?.content[contentType]?.schema.$ref?.replace(/Input$/, '');
      check('body', body, e.body && `${REF}${e.body}`);
      const success = op.responses[e.status ?? 200]?.content?.['application/json']?.schema;
      // Object schemas are components; others (the health check's boolean) are inline.
      if (e.response && doc.components.schemas[e.response]) check('response', success?.$ref, `${REF}${e.response}`);
      else if (!e.response) check('response', success, undefined);
    }
    expect(problems).toEqual([]);
  });
});

describe('the typed client', () => {
  it('fills path parameters (encoded) and leaves empty query values out', () => {
    expect(urlOf(recordsApi.cancel, { params: { id: 15 } })).toBe('/records/cancel/15');
    expect(urlOf(loginApi.passwordRecovery, { params: { email: 'a+b@example.com' } })).toBe(
      '/password-recovery/a%2Bb%40example.com',
    );
    expect(
      urlOf(scheduleApi.past, { query: { skip: 20, limit: 20, from: '', to: '2026-12-01', workshop_id: null } }),
    ).toBe('/schedule/past?skip=20&limit=20&to=2026-12-01');
  });

  it('works against the real server: form login, a page query, path ids, a Telegram booking, a gift by token', async () => {
    let credentials: Record<string, string> = {};
    const call = createClient(async ({ method, url, body, form, access }) => {
      const res = await t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: {
          ...(access === 'public' ? {} : credentials),
          ...(body === undefined
            ? {}
            : { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' }),
        },
        payload:
          body === undefined
            ? undefined
            : form
              ? new URLSearchParams(body as Record<string, string>).toString()
              : JSON.stringify(body),
      });
      if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    });

    const token = await call(loginApi.accessToken, {
      body: { username: t.superuser.email, password: t.superuser.password },
    });
    credentials = { authorization: `Bearer ${token.access_token}` };
    expect((await call(usersApi.me)).email).toBe(t.superuser.email);
    expect((await call(usersApi.list, { query: { skip: 0, limit: 1 } })).data).toHaveLength(1);

    const workshop = await call(workshopsApi.create, { body: { title: 'Хинкали' } });
    const renamed = await call(workshopsApi.update, { params: { id: workshop.id }, body: { title: 'Хачапури' } });
    expect(renamed.title).toBe('Хачапури');
    expect((await call(workshopsApi.delete, { params: { id: workshop.id } })).message).toBeTruthy();

    const { schedule } = await createSession(t.app, credentials);
    // An empty date filter is left out, not sent as an invalid date.
    const upcoming = await call(scheduleApi.list, { query: { from: '', to: '', workshop_id: null } });
    expect(upcoming.data.map((s) => s.id)).toContain(schedule.id);

    const giver = telegramUser();
    credentials = tma(giver);
    const booked = await call(recordsApi.create, { body: bookingPayload(schedule.id) });
    expect(booked.record.state).toBe('ACTIVE');
    const cancelled = await call(recordsApi.cancel, {
      params: { id: booked.record.id },
      body: { cancel_reason: 'Заболела' },
    });
    expect(cancelled.record.state).toBe('CANCELLED');
    expect((await call(recordsApi.restore, { params: { id: booked.record.id } })).record.state).toBe('ACTIVE');

    const link = await call(recordsApi.gift, { params: { id: booked.record.id } });
    const giftToken = /gift_([\w-]+)$/.exec(link.url)![1];
    credentials = tma(telegramUser());
    const gift = await call(giftsApi.view, { params: { token: giftToken } });
    expect(gift.schedule.id).toBe(schedule.id);
    const accepted = await call(giftsApi.accept, {
      params: { token: giftToken },
      body: { name: 'Вера', consent: true },
    });
    expect(accepted.record.name).toBe('Вера');
    await expect(call(giftsApi.view, { params: { token: 'no-such-token-123' } })).rejects.toThrow(
      'GET /gifts/no-such-token-123: 404',
    );
  });
});
