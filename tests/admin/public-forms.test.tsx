import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { isDisabled, mockApi, renderAdmin } from './setup';
import { LoginForm } from '../../admin/src/pages/Login';
import { RecoverPasswordForm } from '../../admin/src/pages/RecoverPassword';
import { ResetPasswordForm } from '../../admin/src/pages/ResetPassword';

describe('login form', () => {
  it('checks the email pattern on blur (only the pattern)', async () => {
    const user = userEvent.setup();
    renderAdmin(<LoginForm onLoggedIn={() => undefined} />);
    await user.type(screen.getByLabelText('Email'), 'nope');
    await user.tab();
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    await user.clear(screen.getByLabelText('Email'));
    await user.tab();
    await waitFor(() => expect(screen.queryByText('Invalid email address')).toBeNull());
  });

  it('toggles the password visibility', async () => {
    const user = userEvent.setup();
    renderAdmin(<LoginForm onLoggedIn={() => undefined} />);
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show password', hidden: true }));
    expect((screen.getByLabelText('Password') as HTMLInputElement).type).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Hide password', hidden: true }));
    expect((screen.getByLabelText('Password') as HTMLInputElement).type).toBe('password');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/recover-password');
  });

  it("shows the server's detail under the password field", async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({
      'POST /login/access-token': { status: 400, body: { detail: 'Incorrect email or password' } },
    });
    renderAdmin(<LoginForm onLoggedIn={() => undefined} />);
    await user.type(screen.getByLabelText('Email'), 'a@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    const error = await screen.findByText('Incorrect email or password');
    expect(screen.getByLabelText('Password').getAttribute('aria-describedby')).toContain(error.id);
    expect(calls[0].body).toBe('username=a%40example.com&password=wrong-password');
    expect(calls[0].headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('stores the token and moves on', async () => {
    const user = userEvent.setup();
    mockApi({ 'POST /login/access-token': { body: { access_token: 'tok-1', token_type: 'bearer' } } });
    const onLoggedIn = vi.fn();
    renderAdmin(<LoginForm onLoggedIn={onLoggedIn} />);
    await user.type(screen.getByLabelText('Email'), 'a@example.com');
    await user.type(screen.getByLabelText('Password'), 'right-password');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalled());
    expect(localStorage.getItem('access_token')).toBe('tok-1');
  });
});

describe('recover password form', () => {
  it('requires an email and checks its pattern', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({});
    renderAdmin(<RecoverPasswordForm />);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    await user.type(screen.getByLabelText('Email'), 'x@y');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('sends the recovery email and says so', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'POST /password-recovery/cook%40example.com': { body: { message: 'ok' } } });
    renderAdmin(<RecoverPasswordForm />);
    await user.type(screen.getByLabelText('Email'), 'cook@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Email sent.')).toBeTruthy();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /password-recovery/cook%40example.com']);
  });

  it('shows a failure in a toast', async () => {
    const user = userEvent.setup();
    mockApi({
      'POST /password-recovery/cook%40example.com': { status: 429, body: { detail: 'Слишком много запросов' } },
    });
    renderAdmin(<RecoverPasswordForm />);
    await user.type(screen.getByLabelText('Email'), 'cook@example.com');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Something went wrong.')).toBeTruthy();
    expect(screen.getByText('Слишком много запросов')).toBeTruthy();
  });
});

describe('reset password form', () => {
  it('validates both fields', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({});
    renderAdmin(<ResetPasswordForm token="t" onDone={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password is required')).toBeTruthy();
    expect(screen.getByText('Please confirm your password')).toBeTruthy();
    await user.type(screen.getByLabelText('Set Password'), 'short');
    await user.type(screen.getByLabelText('Confirm Password'), 'shorter');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText('The passwords do not match')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('sends the token and the new password, then goes on', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi({ 'POST /reset-password/': { body: { message: 'ok' } } });
    const onDone = vi.fn();
    renderAdmin(<ResetPasswordForm token="tok-9" onDone={onDone} />);
    await user.type(screen.getByLabelText('Set Password'), 'long-enough-1');
    await user.type(screen.getByLabelText('Confirm Password'), 'long-enough-1');
    expect(isDisabled(screen.getByRole('button', { name: 'Reset Password' }))).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls[0].body).toEqual({ token: 'tok-9', new_password: 'long-enough-1' });
    expect(await screen.findByText('Password updated successfully.')).toBeTruthy();
  });
});
