import { z } from './zod';
import { PASSWORD_MIN } from './common';

export const LoginForm = z.object({
  username: z.string().trim().min(1).max(255),
  password: z.string().min(1).max(255),
});
export type LoginForm = z.infer<typeof LoginForm>;

export const Token = z.object({ access_token: z.string(), token_type: z.literal('bearer') });
export type Token = z.infer<typeof Token>;

// The password reset and recovery screens are in English, and so are their messages.
export const NewPassword = z.object({
  token: z.string().min(1).max(512),
  new_password: z
    .string()
    .min(1, 'Password is required')
    .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
    .max(255),
});
export type NewPassword = z.infer<typeof NewPassword>;

/** The recovery screen's form and its API path parameter. */
export const EmailParam = z.object({
  email: z.string().trim().min(1, 'Email is required').toLowerCase().pipe(z.email('Invalid email address')),
});
export type EmailParam = z.infer<typeof EmailParam>;
