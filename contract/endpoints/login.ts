import type { Endpoints } from './endpoint';

const tag = 'login';

/** Logging in and recovering a password. */
export const loginApi = {
  accessToken: {
    method: 'POST',
    path: '/login/access-token',
    access: 'public',
    tag,
    summary: 'Log in: an access token for staff',
    description:
      'The OAuth2 password form (`username` is the email): a JWT to send as `Authorization: Bearer …`. A wrong email or password, or an inactive account, is 400; attempts per client are limited (429).',
    errors: [400, 429],
    form: true,
    body: 'LoginForm',
    response: 'Token',
  },
  testToken: {
    method: 'POST',
    path: '/login/test-token',
    access: 'staff',
    can: 'account',
    tag,
    summary: 'Check the access token',
    response: 'UserPublic',
  },
  passwordRecovery: {
    method: 'POST',
    path: '/password-recovery/:email',
    access: 'public',
    tag,
    summary: 'Email a password reset link',
    description:
      'The same answer whether or not the email belongs to an account, so accounts cannot be probed; the email, if any, is sent after the answer. Limited per client (429).',
    errors: [429],
    params: 'EmailParam',
    response: 'Message',
  },
  resetPassword: {
    method: 'POST',
    path: '/reset-password/',
    access: 'public',
    tag,
    summary: 'Reset the password',
    description: 'Sets a new password with the token from the reset email; an expired or unknown token is 400.',
    errors: [400],
    body: 'NewPassword',
    response: 'Message',
  },
  passwordRecoveryEmail: {
    method: 'POST',
    path: '/password-recovery-html-content/:email',
    access: 'staff',
    can: 'users.manage',
    tag,
    summary: 'Preview the password reset email (HTML)',
    params: 'EmailParam',
  },
} as const satisfies Endpoints;
