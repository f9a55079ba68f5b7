/**
 * The platform owner's page in Debian's Chromium against the real platform (startTestPlatform listening
 * on loopback, serving the built admin from DIST_DIR), at desktop (1280) and phone (390) widths: the
 * login at /platform/login, the two studios with their health, «Приостановить» (the studio then answers
 * 503), «Выгрузить» (a download), «Удалить» with the address typed out (the studio then answers 404),
 * the empty state, the loading skeleton and a failed load. axe-core: no serious or critical violation.
 * Screenshots: test-results/screenshots/platform-*.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PLATFORM_TOKEN_KEY } from '../../contract/platform';
import { enqueueNotifications } from '../../db/repositories/notifications';
import { openStudioDatabase } from '../../platform/studios';
import { launchBrowser, screenshotPath, sideways } from '../helpers/browser';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram';
import { axeProblems } from '../helpers/miniapp';
import { OWNER, startOwnerPlatform, type OwnerPlatform } from '../helpers/platform-owner';

const DIST = process.env.DIST_DIR ?? 'dist';
let browser: Browser;
let fake: FakeTelegram;

beforeAll(async () => {
  if (!fs.existsSync(path.join(DIST, 'admin', 'index.html')))
    throw new Error(`No built admin in ${DIST}: run \`npx vite build\` first`);
  browser = await launchBrowser();
  fake = await startFakeTelegram();
});
afterAll(async () => {
  await browser?.close();
  await fake?.close();
});

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, phone: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
] as const;

/** After the pointer has left (a hovered button is a shade lighter) and transitions have ended. */
async function expectNoAxeProblems(page: Page, what: string) {
  await page.mouse.move(0, 0);
  await page.waitForTimeout(300);
  expect(await axeProblems(page), what).toEqual([]);
}

for (const { name, viewport, phone } of VIEWPORTS) {
  describe(`the platform owner's page at ${viewport.width} px`, () => {
    let p: OwnerPlatform;
    let alpha: Awaited<ReturnType<OwnerPlatform['addStudio']>>;
    let beta: Awaited<ReturnType<OwnerPlatform['addStudio']>>;

    beforeAll(async () => {
      p = await startOwnerPlatform({ env: { ...fake.env, DIST_DIR: DIST } });
      alpha = await p.addStudio('alpha', phone ? 3 : 1);
      beta = await p.addStudio('beta', phone ? 4 : 2);
      for (const s of [alpha, beta]) fake.addBot({ id: s.bot.id, username: s.bot.username }, s.bot.token);
      // Alpha has notifications waiting, one of them failing.
      const row = await p.store.db
        .selectFrom('studios')
        .selectAll()
        .where('id', '=', alpha.id)
        .executeTakeFirstOrThrow();
      const database = openStudioDatabase(row, p.servers, p.config.dataDir);
      try {
        await enqueueNotifications(database.db, [
          { chat_id: 1, kind: 'test', payload: {} },
          { chat_id: 2, kind: 'test', payload: {} },
          { chat_id: 3, kind: 'test', payload: {} },
        ]);
        await database.db
          .updateTable('notifications')
          .set({ status: 'failed', attempts: 1, last_error: '403: Forbidden: bot was blocked by the user' })
          .where('chat_id', '=', 3)
          .execute();
      } finally {
        await database.close();
      }
    }, 60_000);
    afterAll(async () => p?.close());

    it('logs in, lists the studios, suspends, exports and deletes one, then shows the empty list', async () => {
      const context = await browser.newContext({
        viewport,
        locale: 'ru-RU',
        timezoneId: 'Europe/Belgrade',
        bypassCSP: true,
        acceptDownloads: true,
        ...(phone && { deviceScaleFactor: 2, isMobile: true, hasTouch: true }),
      });
      // A studio's staff token on this origin is neither used nor touched.
      await context.addInitScript(() => localStorage.setItem('access_token', 'a-studio-token'));
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      try {
        await page.goto(`${p.url}/platform`);
        await page.waitForURL('**/platform/login');
        await page.getByRole('heading', { name: 'Платформа студий' }).waitFor();
        await page.getByLabel('Email').fill(OWNER.email);
        await page.getByLabel('Пароль', { exact: true }).fill('wrong-password');
        await page.getByRole('button', { name: 'Войти' }).click();
        await page.getByText('Неверный email или пароль').waitFor();
        await page.screenshot({ path: screenshotPath(`platform-${name}-login-error`) });
        await expectNoAxeProblems(page, 'login');

        await page.getByLabel('Пароль', { exact: true }).fill(OWNER.password);
        await page.getByRole('button', { name: 'Войти' }).click();
        await page.waitForURL((u) => u.pathname === '/platform' || u.pathname === '/platform/');
        const table = page.getByTestId('studios-table');
        await table.waitFor();
        const rowOf = (slug: string) => page.locator(`tr[data-studio="${slug}"]`);
        await rowOf('alpha').getByText('2 в очереди').waitFor();
        await expect(rowOf('alpha').getByTestId('studio-failures').textContent()).resolves.toContain(
          'не доставлено: 1',
        );
        await rowOf('beta').getByText('пусто').waitFor();
        await rowOf('beta').getByText('@studio').waitFor();
        expect(await rowOf('alpha').getByRole('link', { name: '/s/alpha' }).getAttribute('href')).toBe('/s/alpha/');
        const stored = await page.evaluate(
          (key) => [localStorage.getItem(key), localStorage.getItem('access_token')],
          PLATFORM_TOKEN_KEY,
        );
        expect(stored[0]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
        expect(stored[1]).toBe('a-studio-token');
        expect(await sideways(page)).toBe(0);
        await page.waitForTimeout(300);
        await page.screenshot({ path: screenshotPath(`platform-${name}-studios`), fullPage: true });
        await expectNoAxeProblems(page, 'studios');

        // Suspend alpha: asked first, then at once unavailable.
        await rowOf('alpha').getByRole('button', { name: 'Приостановить' }).click();
        const ask = page.getByRole('dialog');
        await ask.getByText('перестанут работать сразу').waitFor();
        await page.waitForTimeout(300);
        await page.screenshot({ path: screenshotPath(`platform-${name}-suspend-confirm`) });
        await expectNoAxeProblems(page, 'suspend dialog');
        await ask.getByRole('button', { name: 'Приостановить' }).click();
        await rowOf('alpha').getByTestId('studio-status').getByText('Приостановлена').waitFor();
        await rowOf('alpha').getByText(`Приостановлена владельцем платформы ${OWNER.email}`).waitFor();
        expect((await fetch(`${p.url}/s/alpha/api/v1/users/me`)).status).toBe(503);
        expect((await fetch(`${p.url}/s/beta/api/v1/users/me`)).status).toBe(401);
        await rowOf('alpha').getByRole('button', { name: 'Возобновить' }).waitFor();

        // Export alpha: a download of its archive.
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          rowOf('alpha').getByRole('button', { name: 'Выгрузить' }).click(),
        ]);
        expect(download.suggestedFilename()).toMatch(/^alpha-\d{4}-\d{2}-\d{2}\.ndjson\.gz$/);
        const saved = await download.path();
        const lines = gunzipSync(fs.readFileSync(saved)).toString('utf8').trim().split('\n');
        expect(JSON.parse(lines[0])).toMatchObject({ format: 'studio-archive' });
        expect(lines.filter((l) => l.includes('"t":"notifications"'))).toHaveLength(3);
        await page.getByText(/Архив студии сохранён/).waitFor();

        // Delete alpha: the address typed out, else the button stays off.
        await rowOf('alpha').getByRole('button', { name: 'Удалить' }).click();
        const del = page.getByRole('dialog');
        const confirm = del.getByRole('button', { name: 'Удалить навсегда' });
        await del.getByText('Вернуть их нельзя').waitFor();
        expect(await confirm.isDisabled()).toBe(true);
        await del.getByLabel('Введите адрес студии: alpha').fill('alph');
        expect(await confirm.isDisabled()).toBe(true);
        await del.getByLabel('Введите адрес студии: alpha').fill('alpha');
        expect(await confirm.isDisabled()).toBe(false);
        await page.waitForTimeout(250);
        await page.screenshot({ path: screenshotPath(`platform-${name}-delete-confirm`) });
        await expectNoAxeProblems(page, 'delete dialog');
        await confirm.click();
        await rowOf('alpha').waitFor({ state: 'detached' });
        await page.getByText(`Студия «${phone ? 'Студия 3' : 'Студия 1'}» (/s/alpha) удалена.`).waitFor();
        expect(fake.ok('deleteWebhook', undefined, alpha.bot.token)).toHaveLength(1);
        expect((await fetch(`${p.url}/s/alpha/api/v1/users/me`)).status).toBe(404);
        await rowOf('beta').waitFor();
        expect(await page.locator('tr[data-studio]').count()).toBe(1);

        // The last studio deleted (by the API): the empty state.
        const auth = await p.ownerAuth();
        const gone = await fetch(`${p.url}/api/platform/studios/${beta.id}`, {
          method: 'DELETE',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ confirm: 'beta' }),
        });
        expect(gone.status).toBe(200);
        await page.getByRole('button', { name: 'Обновить' }).click();
        await page.getByText('Студий пока нет').waitFor();
        await page.waitForTimeout(300);
        await page.screenshot({ path: screenshotPath(`platform-${name}-empty`) });
        await expectNoAxeProblems(page, 'empty');
        expect(errors).toEqual([]);

        // Logout: the owner's token goes, the studio's stays.
        await page.getByRole('button', { name: 'Выйти' }).click();
        await page.waitForURL('**/platform/login');
        expect(
          await page.evaluate(
            (key) => [localStorage.getItem(key), localStorage.getItem('access_token')],
            PLATFORM_TOKEN_KEY,
          ),
        ).toEqual([null, 'a-studio-token']);
      } finally {
        await context.close();
      }
    });

    it('shows a skeleton while loading, and a failed load with what to do', async () => {
      const context = await browser.newContext({ viewport, locale: 'ru-RU', bypassCSP: true });
      const token = (await p.ownerAuth()).authorization.replace(/^Bearer /, '');
      await context.addInitScript(([key, t]) => localStorage.setItem(key, t), [PLATFORM_TOKEN_KEY, token] as const);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      try {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let failing = true;
        await page.route('**/api/platform/studios', async (route) => {
          await held;
          if (failing)
            return route.fulfill({
              status: 500,
              contentType: 'application/json',
              body: JSON.stringify({ detail: 'Внутренняя ошибка сервера' }),
            });
          return route.continue();
        });
        await page.goto(`${p.url}/platform`);
        await page.getByTestId('studios-loading').waitFor();
        await page.screenshot({ path: screenshotPath(`platform-${name}-loading`) });
        release();
        const alert = page.getByTestId('studios-error');
        await alert.getByText('посмотрите его журнал').waitFor();
        await page.screenshot({ path: screenshotPath(`platform-${name}-error`) });
        await expectNoAxeProblems(page, 'error');
        failing = false;
        await alert.getByRole('button', { name: 'Повторить' }).click();
        await page.getByText('Студий пока нет').waitFor();
        await alert.waitFor({ state: 'detached' });
      } finally {
        await context.close();
      }
    });
  });
}
