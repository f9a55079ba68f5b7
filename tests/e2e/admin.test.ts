import { formatPrice } from '../../contract/format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import 'dayjs/locale/ru';
import { launchBrowser, screenshotPath } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { startSmtpCapture } from '../helpers/smtp';
import { initDataFor } from '../helpers/telegram';

dayjs.extend(utc);
dayjs.extend(timezone);

// The staff admin end to end: Debian's Chromium against the real server (built bundles in
// DIST_DIR, default dist/), a fresh SQLite database and a real SMTP capture.

type Server = Awaited<ReturnType<typeof startTestServer>>;
type Smtp = Awaited<ReturnType<typeof startSmtpCapture>>;

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const TZ = 'Europe/Belgrade';

let server: Server;
let smtp: Smtp;
let browser: Browser;

/** Console errors and uncaught exceptions of a page; failed requests the test provokes are expected. */
function watchConsole(page: Page, errors: string[]) {
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
}

async function newPage(
  viewport: { width: number; height: number },
  errors: string[],
): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport, locale: 'ru-RU', timezoneId: 'UTC' });
  const page = await ctx.newPage();
  page.setDefaultTimeout(10_000);
  watchConsole(page, errors);
  return { ctx, page };
}

async function shot(page: Page, name: string) {
  await page.waitForTimeout(350); // let transitions settle
  await page.screenshot({ path: screenshotPath(`admin-${name}`), fullPage: true });
}

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text }).first();

async function expectToast(page: Page, text: string) {
  await toast(page, text).waitFor();
  // close it so later toasts are not hidden behind the stack
  await toast(page, text)
    .locator('button')
    .click()
    .catch(() => undefined);
}

async function login(page: Page, email: string, password: string) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByText('С возвращением').waitFor();
}

async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function staffAuth(email = server.superuser.email, password = server.superuser.password) {
  const res = await fetch(`${server.url}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }).toString(),
  });
  const { access_token } = (await res.json()) as { access_token: string };
  return { authorization: `Bearer ${access_token}` };
}

const tma = (id: number, username: string) => ({
  authorization: `tma ${initDataFor({ id, username, first_name: username })}`,
});

async function book(
  scheduleId: number,
  who: { id: number; username: string },
  name: string,
  people: number,
  extra: Record<string, unknown> = {},
) {
  const view = await api<{ record: { id: number; state: string } }>(
    'POST',
    '/records/',
    { schedule_id: scheduleId, name, people_count: people, is_first_time: true, consent: true, ...extra },
    tma(who.id, who.username),
  );
  return view.record;
}

beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await startTestServer({ env: { ...smtp.env, BUSINESS_TIMEZONE: TZ, BUSINESS_NAME: 'Кулинарная студия' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

describe('staff admin in the browser', () => {
  it('desktop: log in, workshops, addresses, schedule with bookings, notify, edit, delete, users, logout, password reset', async () => {
    const errors: string[] = [];
    const { ctx, page } = await newPage(DESKTOP, errors);

    // --- no token: the staff area sends you to /login
    await page.goto(`${server.url}/schedule`);
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    await shot(page, 'desktop-login');

    // --- login: email pattern, show/hide password, the server's detail under the password field
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).focus();
    await page.getByText('Invalid email address').waitFor();
    await page.getByLabel('Email').fill(server.superuser.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Incorrect email or password').waitFor();
    await shot(page, 'desktop-login-error');
    await page.getByLabel('Password', { exact: true }).fill(server.superuser.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('С возвращением').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByText(`Logged in as: ${server.superuser.email}`).waitFor();
    await shot(page, 'desktop-home');

    // a logged-in user is sent away from the public screens
    await page.goto(`${server.url}/login`);
    await page.getByText('С возвращением').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    // --- address (Settings → Адреса)
    await page.getByRole('link', { name: 'Настройки' }).click();
    await page.getByRole('heading', { name: 'Настройки' }).waitFor();
    await shot(page, 'desktop-settings-profile');
    await page.getByRole('tab', { name: 'Уведомления' }).click();
    await page.getByLabel('Отмена записи').waitFor();
    await shot(page, 'desktop-settings-notifications');
    await page.getByRole('switch', { name: 'Отмена записи' }).click();
    expect(await page.getByLabel('Отмена записи').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expectToast(page, 'Настройки сохранены.');
    const settings = await api<{ notifications: { userCancel: boolean } }>(
      'GET',
      '/settings/',
      undefined,
      await staffAuth(),
    );
    expect(settings.notifications.userCancel).toBe(false);

    await page.getByRole('tab', { name: 'Адреса' }).click();
    await page.getByRole('heading', { name: 'Адреса' }).waitFor();
    await page.getByRole('button', { name: 'Добавить' }).click();
    const addressDialog = page.getByRole('dialog', { name: 'Добавление адреса' });
    await addressDialog.waitFor();
    await addressDialog.getByRole('button', { name: 'Сохранить' }).click();
    await addressDialog.getByText('Укажите адрес').waitFor();
    await addressDialog.getByText('Укажите ссылку').waitFor();
    await shot(page, 'desktop-address-dialog');
    await addressDialog.getByRole('textbox', { name: 'Адрес', exact: true }).fill('Булевар ослобођења 12, Нови Сад');
    await addressDialog.getByLabel('Ссылка на карту').fill('https://maps.example.com/ns-12');
    await addressDialog.getByLabel('Описание').fill('Второй этаж, домофон 12');
    await addressDialog.getByRole('button', { name: 'Сохранить' }).click();
    await expectToast(page, 'Адрес добавлен.');
    await page.getByTestId('address-card').filter({ hasText: 'Булевар ослобођења 12' }).waitFor();
    await shot(page, 'desktop-settings-addresses');

    // --- workshop
    await page.getByRole('link', { name: 'Мастер-классы' }).click();
    await page.getByRole('heading', { name: 'Мастер-классы' }).waitFor();
    await page.getByTestId('empty-state').waitFor();
    await page.getByRole('button', { name: 'Добавить' }).click();
    const workshopDialog = page.getByRole('dialog', { name: 'Добавление мастер-класса' });
    await workshopDialog.waitFor();
    expect(await workshopDialog.getByLabel('Цена, RSD').inputValue()).toBe('3 500');
    expect(await workshopDialog.getByRole('button', { name: 'Сохранить' }).isDisabled()).toBe(true);
    await workshopDialog.getByRole('textbox', { name: 'Название', exact: true }).fill('Паста карбонара');
    await workshopDialog
      .getByRole('textbox', { name: 'Описание', exact: true })
      .fill('Готовим пасту с нуля: тесто, соус и подача.');
    await shot(page, 'desktop-workshop-dialog');
    await workshopDialog.getByRole('button', { name: 'Сохранить' }).click();
    await expectToast(page, 'Мастер-класс создан.');
    const workshopCard = page.getByTestId('workshop-card').filter({ hasText: 'Паста карбонара' });
    await workshopCard.getByText(formatPrice(3500)).waitFor();
    await shot(page, 'desktop-workshops');

    // --- session
    await page.getByRole('link', { name: 'Расписание' }).click();
    await page.getByRole('heading', { name: 'Расписание' }).waitFor();
    await page.getByTestId('empty-state').waitFor();
    await page.getByRole('button', { name: 'Добавить' }).click();
    const scheduleDialog = page.getByRole('dialog', { name: 'Добавление мастер-класса в расписание' });
    await scheduleDialog.waitFor();
    expect(await scheduleDialog.getByLabel('Количество мест').inputValue()).toBe('8');
    expect(await scheduleDialog.getByRole('combobox', { name: 'Адрес' }).inputValue()).toBe(
      'Булевар ослобођења 12, Нови Сад',
    );
    await scheduleDialog.getByText('Новый адрес можно добавить в разделе Настройки – Адреса').waitFor();
    await scheduleDialog.getByRole('button', { name: 'Сохранить' }).click();
    await scheduleDialog.getByText('Выберите мастер-класс').waitFor();
    await scheduleDialog.getByRole('combobox', { name: 'Мастер-класс' }).click();
    await page.getByRole('listbox', { name: 'Мастер-класс' }).getByRole('option', { name: 'Паста карбонара' }).click();
    await shot(page, 'desktop-schedule-dialog');
    await scheduleDialog.getByRole('button', { name: 'Сохранить' }).click();
    await expectToast(page, 'Мастер-класс добавлен в расписание');
    const card = page.getByTestId('schedule-card').first();
    await card.waitFor();
    const tomorrowNoon = dayjs().tz(TZ).add(1, 'day').hour(12).minute(0).second(0).millisecond(0);
    await card.getByText(tomorrowNoon.locale('ru').format('D MMMM YYYY H:mm')).waitFor();
    await card.getByText(formatPrice(3500)).waitFor();
    await card.getByText('Второй этаж, домофон 12').waitFor();
    // no bookings yet: only the seats, all free; the workshop's description is not repeated
    expect(await card.locator('.mantine-Badge-root').allInnerTexts()).toEqual(['Мест 8 · свободно 8']);
    expect(await card.getByText('Описание').count()).toBe(0);

    const auth = await staffAuth();
    const sessions = await api<{ data: Array<{ id: number; date: string }> }>('GET', '/schedule/', undefined, auth);
    const scheduleId = sessions.data[0].id;
    expect(dayjs(sessions.data[0].date).valueOf()).toBe(tomorrowNoon.valueOf());

    // --- bookings made through the API (as the mini-app does)
    const anna = await book(scheduleId, { id: 1001, username: 'anna' }, 'Анна', 3, {
      comment: 'Приду с подругами',
      has_allergy: true,
      allergy_type: 'Орехи',
    });
    const boris = await book(scheduleId, { id: 1002, username: 'boris' }, 'Борис', 6);
    const clara = await book(scheduleId, { id: 1003, username: 'clara' }, 'Клара', 1);
    expect([anna.state, boris.state, clara.state]).toEqual(['ACTIVE', 'QUEUED', 'ACTIVE']);
    await api('PUT', `/records/cancel/${clara.id}`, { cancel_reason: 'Заболела' }, tma(1003, 'clara'));

    await page.reload();
    await card.waitFor();
    await card.getByText('Участники 3/8').waitFor();
    await card.getByText('Отменили запись 1').waitFor();
    await card.getByText('В очереди 6').waitFor();
    const rows = card.locator('tbody tr');
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(0).innerText()).toContain('Анна');
    expect(await rows.nth(1).innerText()).toContain('Борис');
    expect(await rows.nth(2).innerText()).toContain('Клара');
    expect(await rows.nth(2).getAttribute('data-cancelled')).toBe('true');
    await rows.nth(2).getByText('Заболела').waitFor();
    const header = await card.locator('thead th').allInnerTexts();
    expect(header.map((h) => h.trim())).toEqual([
      '',
      'Имя',
      'Количество',
      'Telegram',
      'Комментарий',
      'Аллергия',
      'Причина отмены',
    ]);
    // The name opens the staff view of the booking (tests/e2e/staff-booking.test.ts), not the customer's page.
    expect(await card.getByRole('button', { name: 'Анна', exact: true }).count()).toBe(1);
    expect(await card.getByRole('link', { name: 'Анна', exact: true }).count()).toBe(0);
    expect(await card.getByRole('link', { name: '@anna' }).getAttribute('href')).toBe('https://t.me/anna');
    await rows.nth(0).getByText('Орехи').waitFor();
    await shot(page, 'desktop-schedule');

    // --- notifications
    const bell = card.getByRole('button', { name: 'Отправить уведомления' });
    await bell.click();
    const confirm = page.getByRole('dialog', { name: 'Отправка уведомлений' });
    await confirm.getByText('Отправить напоминание всем участникам мастер-класса?').waitFor();
    expect(await confirm.getByText('Уведомления уже были отправлены ранее').count()).toBe(0);
    await shot(page, 'desktop-notify-confirm');
    await confirm.getByRole('button', { name: 'Отправить' }).click();
    await expectToast(page, 'Нотификации отправлены');
    await page.waitForFunction(() => document.querySelector('[data-notified]') !== null);
    await bell.click();
    await confirm.getByText('Уведомления уже были отправлены ранее').waitFor();
    await shot(page, 'desktop-notify-again');
    await confirm.getByRole('button', { name: 'Отмена' }).click();
    await confirm.waitFor({ state: 'hidden' });

    // --- edit the session: Save disabled until something changes; more seats promote the queue
    await card.getByRole('button', { name: 'Редактировать' }).click();
    const editSchedule = page.getByRole('dialog', { name: 'Редактирование расписания' });
    await editSchedule.waitFor();
    expect(await editSchedule.getByRole('button', { name: 'Сохранить' }).isDisabled()).toBe(true);
    await editSchedule.getByLabel('Количество мест').fill('10');
    expect(await editSchedule.getByRole('button', { name: 'Сохранить' }).isDisabled()).toBe(false);
    await shot(page, 'desktop-schedule-edit');
    await editSchedule.getByRole('button', { name: 'Сохранить' }).click();
    await expectToast(page, 'Расписание обновлено');
    await card.getByText('Участники 9/10').waitFor();
    expect(await card.getByText(/В очереди/).count()).toBe(0);

    // --- edit the workshop
    await page.getByRole('link', { name: 'Мастер-классы' }).click();
    await workshopCard.getByRole('button', { name: 'Редактировать Паста карбонара' }).click();
    const editWorkshop = page.getByRole('dialog', { name: 'Редактирование мастер-класса' });
    await editWorkshop.waitFor();
    expect(await editWorkshop.getByRole('button', { name: 'Сохранить' }).isDisabled()).toBe(true);
    await editWorkshop.getByLabel('Цена, RSD').fill('4000');
    await editWorkshop.getByRole('button', { name: 'Сохранить' }).click();
    await expectToast(page, 'Мастер-класс обновлен.');
    await workshopCard.getByText(formatPrice(4000)).waitFor();

    // --- a workshop used by a session cannot be deleted: the server's detail is shown
    await workshopCard.getByRole('button', { name: 'Удалить Паста карбонара' }).click();
    let confirmDelete = page.getByRole('dialog', { name: 'Удаление' });
    await confirmDelete.getByText('Вы действительно хотите удалить?').waitFor();
    await shot(page, 'desktop-delete-confirm');
    await confirmDelete.getByRole('button', { name: 'Удалить' }).click();
    await toast(page, 'При удалении возникла ошибка.').waitFor();
    await expectToast(page, 'При удалении возникла ошибка.');

    // --- the past list (empty here) and deleting the session from the schedule
    await page.getByRole('link', { name: 'История' }).click();
    await page.getByRole('heading', { name: 'История' }).waitFor();
    await page.getByTestId('empty-state').waitFor();
    expect(await page.getByRole('button', { name: 'Добавить' }).count()).toBe(0);
    await shot(page, 'desktop-past');
    await page.getByRole('link', { name: 'Расписание' }).click();
    // A session with open bookings is cancelled, not deleted: «Удалить» offers the cancel, naming the bookings.
    await card.getByRole('button', { name: 'Удалить' }).click();
    const offer = page.getByRole('dialog', { name: 'Отменить мастер-класс?' });
    await offer.getByText('Все записи (2) будут отменены', { exact: false }).waitFor();
    await offer.getByRole('button', { name: 'Назад' }).click();
    await offer.waitFor({ state: 'hidden' });
    // Once its customers have cancelled (nothing paid), the session can be deleted.
    await api('PUT', `/records/cancel/${anna.id}`, { cancel_reason: 'Не смогу' }, tma(1001, 'anna'));
    await api('PUT', `/records/cancel/${boris.id}`, { cancel_reason: 'Не смогу' }, tma(1002, 'boris'));
    await page.reload();
    await card.waitFor();
    await card.getByRole('button', { name: 'Удалить' }).click();
    confirmDelete = page.getByRole('dialog', { name: 'Удаление' });
    await confirmDelete.getByRole('button', { name: 'Удалить' }).click();
    await expectToast(page, 'Объект успешно удален.');
    await page.getByTestId('empty-state').waitFor();

    // now the workshop goes too
    await page.getByRole('link', { name: 'Мастер-классы' }).click();
    await workshopCard.getByRole('button', { name: 'Удалить Паста карбонара' }).click();
    await page.getByRole('dialog', { name: 'Удаление' }).getByRole('button', { name: 'Удалить' }).click();
    await expectToast(page, 'Объект успешно удален.');
    await page.getByTestId('empty-state').waitFor();

    // --- users (superuser)
    await page.getByRole('link', { name: 'Пользователи' }).click();
    await page.getByRole('heading', { name: 'Пользователи' }).waitFor();
    const meRow = page.locator('tbody tr').filter({ hasText: server.superuser.email });
    await meRow.getByText('Вы').waitFor();
    await meRow.getByText('N/A').waitFor();
    await meRow.getByText('Владелец').waitFor();
    await meRow.getByText('Активен').waitFor();
    await shot(page, 'desktop-users');
    await page.getByRole('button', { name: 'Добавить' }).click();
    const addUser = page.getByRole('dialog', { name: 'Добавить пользователя' });
    await addUser.waitFor();
    await addUser.getByRole('button', { name: 'Сохранить' }).click();
    await addUser.getByText('Укажите email').waitFor();
    await addUser.getByText('Укажите пароль').waitFor();
    await addUser.getByText('Введите пароль еще раз').waitFor();
    await addUser.getByLabel('Email').fill('cook@example.com');
    await addUser.getByLabel('Полное имя').fill('Мария Повар');
    await addUser.getByLabel(/^Пароль/).fill('short');
    await addUser.getByLabel('Подтвердите пароль').fill('different');
    await addUser.getByLabel('Полное имя').focus();
    await addUser.getByText('Длина пароля должна быть минимум 8 символов').waitFor();
    await addUser.getByText('Указанные пароли не совпадают').waitFor();
    await addUser.getByLabel(/^Пароль/).fill('cook-password-1');
    await addUser.getByLabel('Подтвердите пароль').fill('cook-password-1');
    expect(await addUser.getByLabel('Активен').isChecked()).toBe(true);
    await shot(page, 'desktop-user-add');
    await addUser.getByRole('button', { name: 'Сохранить' }).click();
    await expectToast(page, 'Пользователь добавлен.');
    const cookRow = page.locator('tbody tr').filter({ hasText: 'cook@example.com' });
    await cookRow.getByText('Мария Повар').waitFor();
    await cookRow.getByText('Менеджер', { exact: true }).waitFor();
    await cookRow.getByText('Активен').waitFor();

    await cookRow.getByRole('button', { name: 'Редактировать cook@example.com' }).click();
    const editUser = page.getByRole('dialog', { name: 'Редактирорвание данных пользователя' });
    await editUser.waitFor();
    expect(await editUser.getByRole('button', { name: 'Сохранить' }).isDisabled()).toBe(true);
    await editUser.getByLabel('Полное имя').fill('Мария Шеф');
    await shot(page, 'desktop-user-edit');
    await editUser.getByRole('button', { name: 'Сохранить' }).click();
    await expectToast(page, 'Данные польователя обновлены');
    await cookRow.getByText('Мария Шеф').waitFor();

    // --- log out
    await page.getByRole('button', { name: 'Выйти' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();

    // --- an ordinary user: no users entry, /admin refused
    await login(page, 'cook@example.com', 'cook-password-1');
    await page.getByText('Здравствуйте, Мария Шеф').waitFor();
    expect(await page.getByRole('link', { name: 'Пользователи' }).count()).toBe(0);
    await page.goto(`${server.url}/admin`);
    await page.getByTestId('no-access').getByText('Нет доступа').waitFor();
    expect(await page.getByTestId('users-table').count()).toBe(0);
    await shot(page, 'desktop-users-refused');
    // the profile: change the name; no Telegram toggle without a linked Telegram
    await page.getByRole('link', { name: 'Настройки' }).click();
    expect(await page.getByLabel('Уведомления в Telegram').count()).toBe(0);
    await page.getByRole('button', { name: 'Выйти' }).click();
    await page.waitForURL('**/login');

    // --- password recovery through the real SMTP capture, then reset
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/recover-password');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByLabel('Email').fill('cook@example');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Invalid email address').waitFor();
    await page.getByLabel('Email').fill('cook@example.com');
    await shot(page, 'desktop-recover-password');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectToast(page, 'Email sent.');
    const mail = await smtp.waitFor((m) => m.to.includes('cook@example.com'));
    const token = decodeURIComponent(/reset-password\?token=([^"'\s<&]+)/.exec(mail.text || mail.html)![1]);

    await page.goto(`${server.url}/reset-password?token=${encodeURIComponent(token)}`);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password is required').waitFor();
    await page.getByText('Please confirm your password').waitFor();
    await page.getByLabel('Set Password').fill('short');
    await page.getByLabel('Confirm Password').fill('other');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password must be at least 8 characters').waitFor();
    await page.getByText('The passwords do not match').waitFor();
    await page.getByLabel('Set Password').fill('brand-new-password');
    await page.getByLabel('Confirm Password').fill('brand-new-password');
    await shot(page, 'desktop-reset-password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expectToast(page, 'Password updated successfully.');
    await page.waitForURL('**/login');
    await login(page, 'cook@example.com', 'brand-new-password');

    // --- 401 from the server logs out
    await page.evaluate(() => localStorage.setItem('access_token', 'not-a-valid-token'));
    await page.goto(`${server.url}/workshops`);
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();

    // --- unknown route
    await page.goto(`${server.url}/no-such-page`);
    await page.getByText('Page not found.').waitFor();
    await page.getByText('Oops!').waitFor();
    await shot(page, 'desktop-404');
    await page.getByRole('link', { name: 'Go back' }).click();
    await page.waitForURL((u) => u.pathname === '/login' || u.pathname === '/');

    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('phone: the menu is a drawer and every screen fits', async () => {
    const errors: string[] = [];
    // data for the screens
    const auth = await staffAuth();
    const address = await api<{ id: number }>(
      'POST',
      '/address/',
      { title: 'Змај Јовина 3, Нови Сад', map_link: 'https://maps.example.com/zj-3', description: 'Вход со двора' },
      auth,
    );
    const workshop = await api<{ id: number }>(
      'POST',
      '/workshops/',
      { title: 'Тайская кухня', description: 'Том ям, пад тай и манговый рис.', price: 4200 },
      auth,
    );
    const date = dayjs().tz(TZ).add(3, 'day').hour(18).minute(30).second(0).millisecond(0).toISOString();
    const session = await api<{ id: number }>(
      'POST',
      '/schedule/',
      { date, capacity: 4, workshop_id: workshop.id, address_id: address.id },
      auth,
    );
    await book(session.id, { id: 2001, username: 'dina' }, 'Дина', 2, { last_name: 'Петрова', comment: 'Веган' });
    await book(session.id, { id: 2002, username: 'egor' }, 'Егор', 4);

    const { ctx, page } = await newPage(PHONE, errors);
    await page.goto(`${server.url}/login`);
    await shot(page, 'phone-login');
    await login(page, server.superuser.email, server.superuser.password);
    await shot(page, 'phone-home');
    // the sidebar is hidden; the burger opens a drawer
    expect(await page.getByRole('link', { name: 'Расписание' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Открыть меню' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('link', { name: 'Расписание' }).waitFor();
    await drawer.getByText(`Logged in as: ${server.superuser.email}`).waitFor();
    await shot(page, 'phone-drawer');
    await drawer.getByRole('link', { name: 'Расписание' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Расписание' }).waitFor();
    const card = page.getByTestId('schedule-card').first();
    await card.getByText('Участники 2/4').waitFor();
    await card.getByText('В очереди 4').waitFor();
    await shot(page, 'phone-schedule');
    await page.getByRole('button', { name: 'Добавить' }).click();
    await page.getByRole('dialog', { name: 'Добавление мастер-класса в расписание' }).waitFor();
    await shot(page, 'phone-schedule-dialog');
    await page.keyboard.press('Escape');

    for (const [label, heading, name] of [
      ['История', 'История', 'past'],
      ['Мастер-классы', 'Мастер-классы', 'workshops'],
      ['Настройки', 'Настройки', 'settings'],
      ['Пользователи', 'Пользователи', 'users'],
    ] as const) {
      await page.getByRole('button', { name: 'Открыть меню' }).click();
      await page.getByRole('dialog').getByRole('link', { name: label }).click();
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await shot(page, `phone-${name}`);
    }
    await page.getByRole('button', { name: 'Добавить' }).click();
    await page.getByRole('dialog', { name: 'Добавить пользователя' }).waitFor();
    await shot(page, 'phone-user-add');
    await page.keyboard.press('Escape');

    await page.goto(`${server.url}/settings`);
    await page.getByRole('tab', { name: 'Адреса' }).click();
    await page.getByTestId('address-card').first().waitFor();
    await shot(page, 'phone-settings-addresses');

    await page.goto(`${server.url}/nowhere`);
    await page.getByText('Page not found.').waitFor();
    await shot(page, 'phone-404');

    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Открыть меню' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Выйти' }).click();
    await page.waitForURL('**/login');
    await page.goto(`${server.url}/recover-password`);
    await page.getByRole('button', { name: 'Continue' }).waitFor();
    await shot(page, 'phone-recover-password');
    await page.goto(`${server.url}/reset-password?token=x`);
    await page.getByRole('button', { name: 'Reset Password' }).waitFor();
    await shot(page, 'phone-reset-password');

    expect(errors).toEqual([]);
    await ctx.close();
  });
});
