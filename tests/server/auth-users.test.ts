import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { startSmtpCapture } from '../helpers/smtp';
import { sha256 } from '../../core/staff/passwords';
import { consumeLinkToken, createLinkToken } from '../../core/staff/telegram-link';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let staff: { authorization: string };
beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await buildTestApp({ env: { ...smtp.env, PUBLIC_URL: 'https://studio.example' } });
  staff = await t.auth();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const login = (username: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/login/access-token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password }).toString(),
  });

async function createUser(body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/v1/users/', headers: staff, payload: body });
}

describe('login', () => {
  it('returns a bearer token that identifies the user', async () => {
    const res = await login('ADMIN@example.com', t.superuser.password);
    expect(res.statusCode).toBe(200);
    expect(res.json().token_type).toBe('bearer');
    const me = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login/test-token',
      headers: { authorization: `Bearer ${res.json().access_token}` },
    });
    expect(me.json()).toMatchObject({ email: 'admin@example.com', is_superuser: true });
  });

  it('answers wrong credentials and inactive users with 400 and a detail', async () => {
    expect((await login('admin@example.com', 'wrong-password')).json()).toEqual({
      detail: 'Incorrect email or password',
    });
    expect((await login('ghost@example.com', 'whatever-1')).statusCode).toBe(400);
    await createUser({ email: 'sleepy@example.com', password: 'password-123', is_active: false });
    expect((await login('sleepy@example.com', 'password-123')).json()).toEqual({ detail: 'Inactive user' });
  });

  it('rejects a forged or garbage token with 401', async () => {
    for (const authorization of [
      'Bearer nonsense',
      'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.',
      'Basic abc',
      'tma x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization } });
      expect(res.statusCode, authorization).toBe(401);
    }
  });

  it('rate-limits login attempts with 429 and a detail', async () => {
    const limited = await buildTestApp({ rateLimits: { login: 3 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/v1/login/access-token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'username=a@b.co&password=wrong-pass',
        });
        codes.push(res.statusCode);
        if (res.statusCode === 429) expect(res.json().detail).toMatch(/Слишком много попыток/);
      }
      expect(codes).toEqual([400, 400, 400, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('users', () => {
  it('lets a superuser create, list, update and delete users; emails are unique', async () => {
    const created = await createUser({
      email: 'Cook@Example.com',
      full_name: 'Повар',
      password: 'password-123',
      confirm_password: 'password-123',
      is_active: true,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      email: 'cook@example.com',
      full_name: 'Повар',
      is_superuser: false,
      is_active: true,
    });
    expect((await createUser({ email: 'cook@example.com', password: 'password-123' })).statusCode).toBe(409);
    const mismatch = await createUser({
      email: 'x@example.com',
      password: 'password-123',
      confirm_password: 'password-124',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().detail).toContain('Указанные пароли не совпадают');
    const short = await createUser({ email: 'y@example.com', password: 'short' });
    expect(short.json().detail).toContain('Длина пароля должна быть минимум 8 символов');

    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/users/?skip=0&limit=2', headers: staff })).json();
    expect(list.data).toHaveLength(2);
    expect(list.count).toBeGreaterThanOrEqual(3);

    const id = created.json().id;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${id}`,
      headers: staff,
      payload: { is_superuser: true, password: 'new-password-1' },
    });
    expect(patched.json().is_superuser).toBe(true);
    expect((await login('cook@example.com', 'new-password-1')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${id}`, headers: staff })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/users/${id}`, headers: staff })).statusCode).toBe(404);
  });

  it('does not let a superuser delete themselves', async () => {
    const me = (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: staff })).json();
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${me.id}`, headers: staff });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/not allowed to delete themselves/);
  });

  it('updates and unlinks the own profile, with a 30-character name limit', async () => {
    await createUser({ email: 'me@example.com', password: 'password-123', is_active: true });
    const me = await t.auth('me@example.com', 'password-123');
    const long = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: me,
      payload: { full_name: 'я'.repeat(31) },
    });
    expect(long.statusCode).toBe(422);
    // The Telegram id is set only by the one-time link, never by the profile.
    const claimed = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: me,
      payload: { full_name: 'Мария', telegram_id: 777 },
    });
    expect(claimed.statusCode).toBe(422);
    const meId = (await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: me })).json().id;
    await consumeLinkToken(t.database, (await createLinkToken(t.database, meId)).token, { id: 777 });
    const linked = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: me,
      payload: { full_name: 'Мария' },
    });
    expect(linked.json()).toMatchObject({ full_name: 'Мария', telegram_id: 777 });
    const unlinked = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: me,
      payload: { telegram_id: null },
    });
    expect(unlinked.json()).toMatchObject({ full_name: 'Мария', telegram_id: null, telegram_login: null });
    const taken = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: me,
      payload: { email: 'admin@example.com' },
    });
    expect(taken.statusCode).toBe(409);
  });

  it('changes the own password only with the current one', async () => {
    await createUser({ email: 'pw@example.com', password: 'password-123', is_active: true });
    const me = await t.auth('pw@example.com', 'password-123');
    const wrong = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me/password',
      headers: me,
      payload: { current_password: 'nope-nope', new_password: 'password-456' },
    });
    expect(wrong.json()).toEqual({ detail: 'Incorrect password' });
    const ok = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me/password',
      headers: me,
      payload: { current_password: 'password-123', new_password: 'password-456' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await login('pw@example.com', 'password-456')).statusCode).toBe(200);
    expect((await login('pw@example.com', 'password-123')).statusCode).toBe(400);
  });

  it('opens self-registration only when configured', async () => {
    const body = { email: 'open@example.com', password: 'password-123' };
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/users/open', payload: body })).statusCode).toBe(403);
    const open = await buildTestApp({ env: { USERS_OPEN_REGISTRATION: 'true' } });
    try {
      const res = await open.app.inject({ method: 'POST', url: '/api/v1/users/open', payload: body });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ is_superuser: false, is_active: true });
    } finally {
      await open.close();
    }
  });
});

describe('password recovery', () => {
  it('emails a one-time link through SMTP that resets the password', async () => {
    await createUser({ email: 'forgot@example.com', password: 'password-123', is_active: true });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/password-recovery/forgot@example.com' });
    expect(res.statusCode).toBe(200);
    const mail = await smtp.waitFor((m) => m.to === 'forgot@example.com');
    expect(mail.from).toBe('studio@example.com');
    const link = mail.html.match(/https:\/\/studio\.example\/reset-password\?token=([\w-]+)/);
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link![1]);

    const short = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reset-password/',
      payload: { token, new_password: 'short' },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().detail).toContain('Password must be at least 8 characters');
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reset-password/',
      payload: { token, new_password: 'brand-new-pass' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login('forgot@example.com', 'brand-new-pass')).statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reset-password/',
      payload: { token, new_password: 'another-pass-1' },
    });
    expect(again.json()).toEqual({ detail: 'Invalid or expired token' });
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const before = smtp.messages.length;
    const known = await t.app.inject({ method: 'POST', url: '/api/v1/password-recovery/admin@example.com' });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/v1/password-recovery/nobody@example.com' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    await smtp.waitFor((m) => m.to === 'admin@example.com');
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages.slice(before).map((m) => m.to)).toEqual(['admin@example.com']);
  });

  it('refuses an expired token', async () => {
    await createUser({ email: 'late@example.com', password: 'password-123', is_active: true });
    await t.app.inject({ method: 'POST', url: '/api/v1/password-recovery/late@example.com' });
    const mail = await smtp.waitFor((m) => m.to === 'late@example.com');
    const token = decodeURIComponent(mail.html.match(/token=([\w-]+)/)![1]);
    // 48 hours later:
    await t.database.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', sha256(token))
      .execute();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reset-password/',
      payload: { token, new_password: 'brand-new-pass' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('shows the recovery email HTML to superusers only', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/password-recovery-html-content/admin@example.com',
      headers: staff,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('https://studio.example/reset-password?token=');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/password-recovery-html-content/ghost@example.com',
          headers: staff,
        })
      ).statusCode,
    ).toBe(404);
  });
});
