import { Button, Group, Stack, Switch, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { UserUpdateMeFields } from '../../../contract/forms';
import type { UserPublic, UserUpdateMe } from '../../../contract/users';
import { usersApi } from '../../../contract/endpoints/users';
import { call } from '../api';
import { MESSAGES, TITLES } from '../notify';
import { runChange } from '../mutations';

type ProfileValues = z.output<typeof UserUpdateMeFields>;

/** The user's own profile. The Telegram toggle exists only while a telegram_id is linked;
 * switching it off sends telegram_id: null. */
export function ProfileForm({ user }: { user: UserPublic }) {
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<z.input<typeof UserUpdateMeFields>, unknown, ProfileValues>({
    mode: 'onBlur',
    resolver: zodResolver(UserUpdateMeFields),
    values: { full_name: user.full_name ?? '', email: user.email, telegram: user.telegram_id !== null },
  });
  const email = useWatch({ control, name: 'email' });

  const onSubmit = async (v: ProfileValues) => {
    const body: UserUpdateMe = { full_name: v.full_name || null, email: v.email };
    if (user.telegram_id !== null && !v.telegram) body.telegram_id = null;
    await runChange(() => call(usersApi.updateMe, { body }), MESSAGES.userUpdated, TITLES.en);
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <Stack gap="md" maw={480}>
        <TextInput
          label="Полное имя"
          placeholder="Имя и фамилия"
          error={errors.full_name?.message}
          {...register('full_name')}
        />
        <TextInput label="Email" type="email" withAsterisk error={errors.email?.message} {...register('email')} />
        {user.telegram_id !== null && (
          <Controller
            control={control}
            name="telegram"
            render={({ field }) => (
              <Switch
                label="Уведомления в Telegram"
                description={
                  user.telegram_login
                    ? `Подключён аккаунт @${user.telegram_login}`
                    : `Подключён Telegram ID ${user.telegram_id}`
                }
                color="teal"
                name={field.name}
                ref={field.ref}
                checked={field.value}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                onBlur={field.onBlur}
              />
            )}
          />
        )}
        <Group gap="sm">
          <Button type="submit" loading={isSubmitting} disabled={!isDirty || !email?.trim()}>
            Сохранить
          </Button>
          <Button variant="default" onClick={() => reset()} disabled={!isDirty || isSubmitting}>
            Отмена
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
