import { z } from './zod';
import { CAPABILITIES, ROLES, type Capability } from './roles';
import { FULL_NAME_MAX, PASSWORD_MIN, idParam, listOf, requiredText } from './common';

const email = requiredText('Укажите email', 255).toLowerCase().pipe(z.email('Некорректный email адрес'));
const PASSWORD_REQUIRED = 'Укажите пароль';
/** The length rule of a new password, also for forms where the password may stay empty. */
export const PASSWORD_TOO_SHORT = `Длина пароля должна быть минимум ${PASSWORD_MIN} символов`;
const password = z.string().min(1, PASSWORD_REQUIRED).min(PASSWORD_MIN, PASSWORD_TOO_SHORT).max(255);
// The too-long message ('Максимум 30 символов') is the error map's (contract/zod.ts).
const fullName = z.string().trim().max(FULL_NAME_MAX).nullable();
/** confirm_password is optional, but a non-empty one must repeat the password. */
const passwordsMatch = (u: { password?: string; confirm_password?: string }) =>
  !u.confirm_password || u.password === undefined || u.confirm_password === u.password;
const PASSWORDS_DIFFER = { message: 'Указанные пароли не совпадают', path: ['confirm_password'] };
/** A staff account gets its Telegram id only through the one-time link from the bot; elsewhere it can only be cleared (null). */
const telegramIdClearOnly = z
  .null('Telegram подключается только по ссылке из профиля (Настройки → Профиль); здесь его можно только отключить')
  .optional();
/** Telegram user ids are positive integers below 2^53. */
export const TelegramId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Staff roles; what each may do is the table of contract/roles.ts. */
export const STAFF_ROLES = ROLES;
export const StaffRoleSchema = z.enum(STAFF_ROLES);
export const STAFF_ROLE_LABELS = { owner: 'Владелец', manager: 'Менеджер', host: 'Ведущий' } as const;

export const UserPublic = z.object({
  id: z.number().int(),
  email: z.string(),
  full_name: z.string().nullable(),
  is_active: z.boolean(),
  is_superuser: z.boolean(),
  telegram_id: z.number().nullable(),
  telegram_login: z.string().nullable(),
  /** owner (the same as is_superuser), manager or host. */
  role: StaffRoleSchema.optional(),
});
export type UserPublic = z.infer<typeof UserPublic>;

/** The caller's own account, with what their role may do: the admin builds its pages and menu from it. */
export const UserMe = UserPublic.extend({
  capabilities: z.array(z.enum(CAPABILITIES as [Capability, ...Capability[]])),
});
export type UserMe = z.infer<typeof UserMe>;

export const UsersPublic = listOf(UserPublic);
export type UsersPublic = z.infer<typeof UsersPublic>;

/** Staff create payload; confirm_password is optional but, when sent, must match. */
export const UserCreate = z
  .object({
    email,
    full_name: fullName.optional(),
    password,
    confirm_password: z.string().max(255).optional(),
    is_superuser: z.boolean().default(false),
    role: StaffRoleSchema.optional(),
    is_active: z.boolean().default(false),
  })
  .refine(passwordsMatch, PASSWORDS_DIFFER);
export type UserCreate = z.infer<typeof UserCreate>;

export const UserUpdate = z
  .object({
    email: email.optional(),
    full_name: fullName.optional(),
    password: password.optional(),
    confirm_password: z.string().max(255).optional(),
    is_superuser: z.boolean().optional(),
    role: StaffRoleSchema.optional(),
    is_active: z.boolean().optional(),
    telegram_id: telegramIdClearOnly,
  })
  .refine(passwordsMatch, PASSWORDS_DIFFER);
export type UserUpdate = z.infer<typeof UserUpdate>;

export const UserUpdateMe = z.object({
  email: email.optional(),
  full_name: fullName.optional(),
  telegram_id: telegramIdClearOnly,
});
export type UserUpdateMe = z.infer<typeof UserUpdateMe>;

export const UpdatePassword = z.object({
  current_password: z.string().min(1, PASSWORD_REQUIRED).max(255),
  new_password: password,
});
export type UpdatePassword = z.infer<typeof UpdatePassword>;

export const UserRegister = z.object({ email, password, full_name: fullName.optional() });
export type UserRegister = z.infer<typeof UserRegister>;

export const UserIdParam = z.object({ user_id: idParam });

/** The one-time deep link that connects a staff account to Telegram (valid 15 minutes). */
export const TelegramLink = z.object({ url: z.string(), expires_at: z.string() });
export type TelegramLink = z.infer<typeof TelegramLink>;
