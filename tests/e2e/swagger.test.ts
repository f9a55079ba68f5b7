import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';

// Swagger UI at /docs, used as a developer would: Authorize with a real access token, then
// "Try it out" on an operation that needs it.

type Server = Awaited<ReturnType<typeof startTestServer>>;

let server: Server;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Swagger UI', () => {
  it('sends the token given to "Authorize" with "Try it out"', async () => {
    const login = await fetch(`${server.url}/api/v1/login/access-token`, {
      method: 'POST',
      body: new URLSearchParams({ username: server.superuser.email, password: server.superuser.password }),
    });
    expect(login.status).toBe(200);
    const { access_token: token } = (await login.json()) as { access_token: string };

    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    // A CSP that blocked Swagger UI would show up here.
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });

    await page.goto(`${server.url}/docs`);
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    const bearer = dialog.locator('.auth-container').filter({ hasText: '(http, Bearer)' });
    await bearer.getByRole('textbox').fill(token);
    await bearer.locator('button', { hasText: 'Authorize' }).click();
    await bearer.getByText('Authorized').first().waitFor();
    await dialog.locator('button', { hasText: 'Close' }).first().click();

    const op = page.locator('.opblock-get').filter({ has: page.locator('[data-path="/api/v1/users/me"]') });
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.getByRole('button', { name: 'Execute' }).click();
    const response = op.locator('.live-responses-table tbody .response');
    await response.waitFor();
    expect(await response.locator('.response-col_status').innerText()).toBe('200');
    const body = JSON.parse(await response.locator('.response-col_description pre').first().innerText());
    expect(body).toMatchObject({ email: server.superuser.email, is_superuser: true });
    // The request shown is the one sent: with the token.
    expect(await op.locator('.curl-command').innerText()).toContain(`Authorization: Bearer ${token}`);

    await op.scrollIntoViewIfNeeded();
    await op.screenshot({ path: screenshotPath('swagger-users-me') });
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
