import { z } from './zod';
import { EmailParam, LoginForm, NewPassword } from './auth';
import { FIRST_TIME_REQUIRED, PeopleCount, RecordCreate } from './records';
import { PASSWORD_MIN } from './common';
import { PASSWORD_TOO_SHORT, UpdatePassword, UserCreate, UserUpdateMe } from './users';

/*
 * The front ends' forms, each derived from the API schema it fills: the same rules and messages, plus
 * what only a form has (confirm_password, a toggle, '' for an empty input). Forms whose values are
 * the API body itself (workshop, address, session, settings, password recovery) use the API schema.
 * Not exported from contract/index: these are no part of the API.
 */

/** A form shows every message at once: run the check even when another field already failed. */
const always = { when: () => true };

/** Login: only the email's pattern is checked (an empty field is the server's to refuse). */
export const LoginFields = LoginForm.extend({
  // A union answers with its failing branch's message ('Invalid email address').
  username: z.union([EmailParam.shape.email, z.literal('')]),
  password: z.string(),
});

/** Password reset: the new password, typed twice. */
export const NewPasswordFields = NewPassword.pick({ new_password: true })
  .extend({ confirm_password: z.string().min(1, 'Please confirm your password') })
  .refine((v) => !v.confirm_password || v.confirm_password === v.new_password, {
    message: 'The passwords do not match',
    path: ['confirm_password'],
    ...always,
  });

const CONFIRM_REQUIRED = 'Введите пароль еще раз';

/** Settings → change password. */
export const UpdatePasswordFields = UpdatePassword.extend({
  confirm_password: z.string().min(1, CONFIRM_REQUIRED),
}).refine((v) => !v.confirm_password || v.confirm_password === v.new_password, {
  message: 'Пароли не совпадают',
  path: ['confirm_password'],
  ...always,
});

/** Settings → profile; `telegram` is the notifications toggle (off sends telegram_id: null). */
export const UserUpdateMeFields = UserUpdateMe.omit({ telegram_id: true }).extend({
  email: UserUpdateMe.shape.email.unwrap(),
  telegram: z.boolean(),
});

/** The users page's dialog, adding: confirm_password is required. */
export const UserCreateFields = UserCreate.safeExtend({ confirm_password: z.string().min(1, CONFIRM_REQUIRED) });

/** The users page's dialog, editing: the same rules, but an empty password keeps the old one. */
export const UserUpdateFields = UserCreate.safeExtend({
  password: z
    .string()
    .max(255)
    .refine((p) => !p || p.length >= PASSWORD_MIN, PASSWORD_TOO_SHORT),
  confirm_password: z.string(),
}).refine((v) => !v.password || Boolean(v.confirm_password), {
  message: CONFIRM_REQUIRED,
  path: ['confirm_password'],
  ...always,
});

/** The mini-app's contact step: '' for an empty text, 'yes'/'no' for the first-time question; its
 * output is the booking payload without schedule_id. */
export const RecordCreateFields = RecordCreate.omit({ schedule_id: true, telegram_login: true, telegram_id: true })
  .extend({ people_count: PeopleCount, is_first_time: z.enum(['yes', 'no'], { error: FIRST_TIME_REQUIRED }) })
  .refine((r) => !r.has_allergy || Boolean(r.allergy_type), {
    message: 'Укажите, на что аллергия',
    path: ['allergy_type'],
    ...always,
  })
  .transform(({ last_name, comment, allergy_type, is_first_time, ...rest }): Omit<RecordCreate, 'schedule_id'> => ({
    ...rest,
    last_name: last_name || null,
    comment: comment || null,
    allergy_type: rest.has_allergy ? allergy_type || null : null,
    is_first_time: is_first_time === 'yes',
  }));
