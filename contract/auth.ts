import { z } from 'zod';
import { PASSWORD_MIN } from './common';

export const LoginForm = z.object({
  username: z.string().trim().min(1).max(255),
  password: z.string().min(1).max(255),
});
export type LoginForm = z.infer<typeof LoginForm>;

export const Token = z.object({ access_token: z.string(), token_type: z.literal('bearer') });
export type Token = z.infer<typeof Token>;

export const NewPassword = z.object({
  token: z.string().min(1).max(512),
  new_password: z.string().min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`).max(255),
});
export type NewPassword = z.infer<typeof NewPassword>;

export const EmailParam = z.object({ email: z.string().trim().toLowerCase().pipe(z.email()) });
