import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserPublic } from '../../contract/users';
import { isDisabled, mockApi, renderAdmin } from './setup';
import { WorkshopForm } from '../../admin/src/forms/WorkshopForm';
import { AddressForm } from '../../admin/src/forms/AddressForm';
import { ChangePasswordForm } from '../../admin/src/forms/ChangePasswordForm';
import { ProfileForm } from '../../admin/src/forms/ProfileForm';
import { NotificationSettingsForm } from '../../admin/src/forms/NotificationSettingsForm';
import { UserForm } from '../../admin/src/forms/UserForm';

const save = () => screen.getByRole('button', { name: 'Сохранить' });
const me: UserPublic = {
  id: 1,
  email: 'me@example.com',
  full_name: 'Ирина',
  is_active: true,
  is_superuser: true,
  telegram_id: null,
  telegram_login: null,
};

describe('workshop form', () => {
  it('adds with the default price; Save disabled until something changes; title required on blur', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'POST /workshops/': { status: 201, body: { id: 1 } } });
    const onClose = vi.fn();
    renderAdmin(<WorkshopForm opened onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Добавление мастер-класса' });
    expect((within(dialog).getByLabelText('Цена, RSD') as HTMLInputElement).value).toBe('3 500');
    expect(isDisabled(save())).toBe(true);
    await user.click(within(dialog).getByRole('textbox', { name: 'Название' }));
    await user.tab();
    expect(await within(dialog).findByText('Укажите название')).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'Название' }), 'Суши');
    expect(isDisabled(save())).toBe(false);
    await user.click(save());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0].body).toEqual({
      title: 'Суши',
      description: '',
      price: 3500,
      min_people: 0,
      title_en: '',
      title_sr: '',
      description_en: '',
      description_sr: '',
    });
    expect(await screen.findByText('Мастер-класс создан.')).toBeTruthy();
  });

  it('refuses a negative price', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({});
    renderAdmin(<WorkshopForm opened onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Название' }), 'Суши');
    const price = within(dialog).getByLabelText('Цена, RSD');
    await user.clear(price);
    await user.type(price, '-5');
    await user.tab();
    expect(await within(dialog).findByText('Цена не может быть отрицательной')).toBeTruthy();
    await user.click(save());
    expect(calls).toHaveLength(0);
  });

  it('an empty price asks for a number, in Russian', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({});
    renderAdmin(<WorkshopForm opened onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Название' }), 'Суши');
    await user.clear(within(dialog).getByLabelText('Цена, RSD'));
    await user.tab();
    expect(await within(dialog).findByText('Введите число')).toBeTruthy();
    await user.click(save());
    expect(calls).toHaveLength(0);
  });

  it('edits with PUT; Save disabled until a change', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'PUT /workshops/7': { body: { id: 7 } } });
    renderAdmin(
      <WorkshopForm
        opened
        onClose={() => undefined}
        workshop={{ id: 7, title: 'Суши', description: 'Роллы', price: 4000 }}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Редактирование мастер-класса' });
    expect(isDisabled(save())).toBe(true);
    await user.type(within(dialog).getByLabelText('Описание'), ' и нигири');
    await user.click(save());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      path: '/workshops/7',
      body: { title: 'Суши', description: 'Роллы и нигири', price: 4000 },
    });
    expect(await screen.findByText('Мастер-класс обновлен.')).toBeTruthy();
  });

  it('shows a failure detail in a toast', async () => {
    const user = userEvent.setup();
    mockApi({ 'POST /workshops/': { status: 422, body: { detail: 'Название слишком длинное' } } });
    renderAdmin(<WorkshopForm opened onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Название' }), 'X');
    await user.click(save());
    expect(await screen.findByText('Название слишком длинное')).toBeTruthy();
    expect(screen.getByText('Что-то пошло не так')).toBeTruthy();
  });
});

describe('address form', () => {
  it('requires the address and the map link; the description is optional', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'POST /address/': { status: 201, body: { id: 3 } } });
    renderAdmin(<AddressForm opened onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Добавление адреса' });
    await user.click(save());
    expect(await within(dialog).findByText('Укажите адрес')).toBeTruthy();
    expect(within(dialog).getByText('Укажите ссылку')).toBeTruthy();
    expect(calls).toHaveLength(0);
    await user.type(within(dialog).getByLabelText(/^Адрес/), 'Улица 1');
    await user.type(within(dialog).getByLabelText(/Ссылка на карту/), 'https://maps/1');
    await user.click(save());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({ title: 'Улица 1', map_link: 'https://maps/1', description: null });
    expect(await screen.findByText('Адрес добавлен.')).toBeTruthy();
  });

  it('edit: Save disabled until a change, then PUT', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'PUT /address/3': { body: { id: 3 } } });
    renderAdmin(
      <AddressForm
        opened
        onClose={() => undefined}
        address={{ id: 3, title: 'Улица 1', map_link: 'https://m/1', description: null }}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Редактирование адреса' });
    expect(isDisabled(save())).toBe(true);
    await user.type(within(dialog).getByLabelText('Описание'), 'Этаж 2');
    await user.click(save());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({ title: 'Улица 1', map_link: 'https://m/1', description: 'Этаж 2' });
    expect(await screen.findByText('Адрес обновлен.')).toBeTruthy();
  });
});

describe('change password form', () => {
  it('validates: required, min 8, confirm equal; Save disabled until typed', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({
      'PATCH /users/me/password': { body: { message: 'ok' } },
      'POST /login/access-token': { body: { access_token: 'after-change', token_type: 'bearer' } },
    });
    renderAdmin(<ChangePasswordForm email="me@example.com" />);
    expect(isDisabled(save())).toBe(true);
    await user.click(screen.getByLabelText(/Текущий пароль/));
    await user.tab();
    expect(await screen.findByText('Укажите пароль')).toBeTruthy();
    await user.type(screen.getByLabelText(/Новый пароль/), 'short');
    await user.tab();
    expect(await screen.findByText('Длина пароля должна быть минимум 8 символов')).toBeTruthy();
    await user.type(screen.getByLabelText(/Подтвердите пароль/), 'other');
    await user.tab();
    expect(await screen.findByText('Пароли не совпадают')).toBeTruthy();
    await user.type(screen.getByLabelText(/Текущий пароль/), 'old-password');
    await user.clear(screen.getByLabelText(/Новый пароль/));
    await user.type(screen.getByLabelText(/Новый пароль/), 'new-password-1');
    await user.clear(screen.getByLabelText(/Подтвердите пароль/));
    await user.type(screen.getByLabelText(/Подтвердите пароль/), 'new-password-1');
    await user.click(save());
    // The change ends every session, this one too: the form signs in again with the new password.
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0].body).toEqual({ current_password: 'old-password', new_password: 'new-password-1' });
    expect(calls[1].body).toBe('username=me%40example.com&password=new-password-1');
    expect(await screen.findByText('Пароль обновлен.')).toBeTruthy();
    expect(localStorage.getItem('access_token')).toBe('after-change');
  });

  it("shows the server's refusal in a toast", async () => {
    const user = userEvent.setup();
    mockApi({ 'PATCH /users/me/password': { status: 400, body: { detail: 'Incorrect password' } } });
    renderAdmin(<ChangePasswordForm email="me@example.com" />);
    await user.type(screen.getByLabelText(/Текущий пароль/), 'bad-password');
    await user.type(screen.getByLabelText(/Новый пароль/), 'new-password-1');
    await user.type(screen.getByLabelText(/Подтвердите пароль/), 'new-password-1');
    await user.click(save());
    expect(await screen.findByText('Incorrect password')).toBeTruthy();
    expect(screen.getByText('Something went wrong.')).toBeTruthy();
  });
});

describe('profile form', () => {
  it('Save is disabled until a change and while the email is empty; rules of email and name', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'PATCH /users/me': { body: me } });
    renderAdmin(<ProfileForm user={me} />);
    expect(isDisabled(save())).toBe(true);
    expect(screen.queryByRole('switch', { name: /^Уведомления в Telegram/ })).toBeNull();
    const email = screen.getByLabelText(/Email/);
    await user.clear(email);
    expect(isDisabled(save())).toBe(true);
    await user.type(email, 'broken');
    await user.tab();
    expect(await screen.findByText('Некорректный email адрес')).toBeTruthy();
    await user.type(screen.getByLabelText('Полное имя'), 'x'.repeat(30));
    await user.tab();
    expect(await screen.findByText('Максимум 30 символов')).toBeTruthy();
    await user.clear(screen.getByLabelText('Полное имя'));
    await user.type(screen.getByLabelText('Полное имя'), 'Ирина Шеф');
    await user.clear(email);
    await user.type(email, 'irina@example.com');
    expect(isDisabled(save())).toBe(false);
    await user.click(save());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({ full_name: 'Ирина Шеф', email: 'irina@example.com' });
    expect(await screen.findByText('Данные польователя обновлены')).toBeTruthy();
  });

  it('the Telegram toggle exists only with a telegram_id; switching it off sends null', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'PATCH /users/me': { body: me } });
    renderAdmin(<ProfileForm user={{ ...me, telegram_id: 5551, telegram_login: 'irina' }} />);
    const toggle = screen.getByRole('switch', { name: /^Уведомления в Telegram/ }) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    expect(screen.getByText('Подключён аккаунт @irina')).toBeTruthy();
    await user.click(toggle);
    expect(toggle.checked).toBe(false);
    await user.click(save());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({ full_name: 'Ирина', email: 'me@example.com', telegram_id: null });
  });
});

describe('notification settings form', () => {
  it('Save disabled until a switch changes, then POSTs the notifications object', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'POST /settings/': { body: {} } });
    renderAdmin(
      <NotificationSettingsForm
        settings={{ notifications: { userApply: true, userCancel: true, scheduled1d: false } }}
      />,
    );
    expect(isDisabled(save())).toBe(true);
    expect((screen.getByRole('switch', { name: /^Напоминание за день/ }) as HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByRole('switch', { name: /^Отмена записи/ }));
    expect(isDisabled(save())).toBe(false);
    await user.click(save());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({ notifications: { userApply: true, userCancel: false, scheduled1d: false } });
    expect(await screen.findByText('Настройки сохранены.')).toBeTruthy();
  });
});

describe('user form', () => {
  it('add: the rules of email, password and confirmation; a manager, active unless unticked', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'POST /users/': { body: { id: 2 } } });
    const onClose = vi.fn();
    renderAdmin(<UserForm opened onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Добавить пользователя' });
    expect((within(dialog).getByLabelText('Роль') as HTMLSelectElement).value).toBe('manager');
    expect((within(dialog).getByLabelText('Активен') as HTMLInputElement).checked).toBe(true);
    await user.click(save());
    expect(await within(dialog).findByText('Укажите email')).toBeTruthy();
    expect(within(dialog).getByText('Укажите пароль')).toBeTruthy();
    expect(within(dialog).getByText('Введите пароль еще раз')).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/^Email/), 'bad@');
    await user.type(within(dialog).getByLabelText(/^Пароль/), 'short');
    await user.type(within(dialog).getByLabelText(/Подтвердите пароль/), 'other');
    await user.click(save());
    expect(await within(dialog).findByText('Некорректный email адрес')).toBeTruthy();
    expect(within(dialog).getByText('Длина пароля должна быть минимум 8 символов')).toBeTruthy();
    expect(within(dialog).getByText('Указанные пароли не совпадают')).toBeTruthy();
    expect(calls).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText(/^Email/));
    await user.type(within(dialog).getByLabelText(/^Email/), 'cook@example.com');
    await user.clear(within(dialog).getByLabelText(/^Пароль/));
    await user.type(within(dialog).getByLabelText(/^Пароль/), 'cook-password');
    await user.clear(within(dialog).getByLabelText(/Подтвердите пароль/));
    await user.type(within(dialog).getByLabelText(/Подтвердите пароль/), 'cook-password');
    await user.click(save());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0].body).toEqual({
      email: 'cook@example.com',
      full_name: null,
      password: 'cook-password',
      confirm_password: 'cook-password',
      is_superuser: false,
      role: 'manager',
      is_active: true,
    });
    expect(await screen.findByText('Пользователь добавлен.')).toBeTruthy();
  });

  it('add: the owner is chosen in the same role select; unticked, the account is added disabled', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'POST /users/': { body: { id: 3 } } });
    renderAdmin(<UserForm opened onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Добавить пользователя' });
    const role = within(dialog).getByLabelText('Роль') as HTMLSelectElement;
    expect([...role.options].map((o) => o.value)).toEqual(['owner', 'manager', 'host']);
    expect(within(dialog).queryByLabelText('Суперпользователь')).toBeNull();
    await user.selectOptions(role, 'owner');
    await user.click(within(dialog).getByLabelText('Активен'));
    await user.type(within(dialog).getByLabelText(/^Email/), 'partner@example.com');
    await user.type(within(dialog).getByLabelText(/^Пароль/), 'partner-password');
    await user.type(within(dialog).getByLabelText(/Подтвердите пароль/), 'partner-password');
    await user.click(save());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toMatchObject({ role: 'owner', is_superuser: true, is_active: false });
  });

  it('add: a failure gets the user-create title', async () => {
    const user = userEvent.setup();
    mockApi({
      'POST /users/': { status: 409, body: { detail: 'The user with this email already exists in the system.' } },
    });
    renderAdmin(<UserForm opened onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Email/), 'cook@example.com');
    await user.type(within(dialog).getByLabelText(/^Пароль/), 'cook-password');
    await user.type(within(dialog).getByLabelText(/Подтвердите пароль/), 'cook-password');
    await user.click(save());
    expect(await screen.findByText('The user with this email already exists in the system.')).toBeTruthy();
    expect(screen.getByText('Что-то пошло не так.')).toBeTruthy();
  });

  it('edit: title, Save disabled until a change, an empty password is left out', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'PATCH /users/4': { body: { id: 4 } } });
    renderAdmin(
      <UserForm
        opened
        onClose={() => undefined}
        user={{ ...me, id: 4, email: 'cook@example.com', full_name: null, is_superuser: false }}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Редактирорвание данных пользователя' });
    expect(isDisabled(save())).toBe(true);
    await user.type(within(dialog).getByLabelText('Полное имя'), 'Мария');
    expect(isDisabled(save())).toBe(false);
    await user.click(save());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({
      email: 'cook@example.com',
      full_name: 'Мария',
      is_superuser: false,
      role: 'manager',
      is_active: true,
    });
    expect(await screen.findByText('Данные польователя обновлены')).toBeTruthy();
  });

  it('edit: a new password still needs 8 characters and a matching confirmation', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'PATCH /users/4': { body: { id: 4 } } });
    renderAdmin(<UserForm opened onClose={() => undefined} user={{ ...me, id: 4 }} />);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Пароль/), 'short');
    await user.click(save());
    expect(await within(dialog).findByText('Длина пароля должна быть минимум 8 символов')).toBeTruthy();
    expect(within(dialog).getByText('Введите пароль еще раз')).toBeTruthy();
    await user.clear(within(dialog).getByLabelText(/^Пароль/));
    await user.type(within(dialog).getByLabelText(/^Пароль/), 'long-password');
    await user.type(within(dialog).getByLabelText(/Подтвердите пароль/), 'long-password');
    await user.click(save());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toMatchObject({ password: 'long-password', confirm_password: 'long-password' });
  });
});
