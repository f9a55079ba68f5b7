import { lazy, Suspense } from 'react';
import { Divider, Paper, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { useSearch } from 'wouter';
import { businessSettingsApi } from '../../../contract/endpoints/business-settings';
import { settingsApi } from '../../../contract/endpoints/settings';
import { AddressList } from '../components/AddressList';
import { PageHeader } from '../components/PageHeader';
import { TelegramLink } from '../components/TelegramLink';
import { config } from '../config';
import { ChangePasswordForm } from '../forms/ChangePasswordForm';
import { NotificationSettingsForm } from '../forms/NotificationSettingsForm';
import { BusinessSettingsForm } from '../forms/BusinessSettingsForm';
import { ProfileForm } from '../forms/ProfileForm';
import { TITLES, toastError } from '../notify';
import { useApi } from '../query';
import '../pageStyles';
import { useCurrentUser } from '../session';
import { useCan } from '../session';

// The fiscal tab loads when it is opened.
const FiscalSettings = lazy(() => import('./FiscalSettings'));

const TABS = ['profile', 'notifications', 'addresses', 'business', 'fiscal'];

function Profile() {
  const { data: user } = useCurrentUser();
  // Who manages bookings hears of them; the door (a host) marks people in /today and gets the next day's list.
  const bookingAlerts = useCan().can('bookings.manage');
  return (
    <Stack gap="xl">
      <section aria-labelledby="profile-title">
        <Title order={3} id="profile-title" mb="md">
          Данные пользователя
        </Title>
        {user ? <ProfileForm user={user} /> : <Skeleton h={160} maw={480} />}
        {user && config.botEnabled && (
          <Stack gap="xs" mt="lg">
            <Text fw={600}>Telegram</Text>
            <Text size="sm" c="dimmed" maw={480}>
              {user.telegram_id === null
                ? bookingAlerts
                  ? 'Подключите Telegram, чтобы получать уведомления о записях и отменах.'
                  : 'Подключите Telegram, чтобы отмечать участников в /today и получать сводку на завтра.'
                : 'Telegram подключён. Чтобы подключить другой аккаунт, получите новую ссылку.'}
            </Text>
            <TelegramLink linked={user.telegram_id !== null} />
          </Stack>
        )}
      </section>
      <Divider />
      <section aria-labelledby="password-title">
        <Title order={3} id="password-title" mb="md">
          Изменить пароль
        </Title>
        {user ? <ChangePasswordForm email={user.email} /> : <Skeleton h={200} maw={480} />}
      </section>
    </Stack>
  );
}

/** A host is told only of the next day's sessions. */
const HOST_ALERTS = ['scheduled1d'] as const;

function NotificationSettings() {
  const { data } = useApi(settingsApi.get, {}, { onError: (err) => toastError(TITLES.general, err) });
  const bookingAlerts = useCan().can('bookings.manage');
  return (
    <section>
      <Title order={3} mb="xs">
        Уведомления
      </Title>
      <Text size="sm" c="dimmed" mb="lg" maw={560}>
        Какие сообщения бот отправляет сотрудникам с подключённым Telegram.
      </Text>
      {data ? (
        <NotificationSettingsForm settings={data} only={bookingAlerts ? undefined : HOST_ALERTS} />
      ) : (
        <Skeleton h={180} maw={560} />
      )}
    </section>
  );
}

function BusinessSettings() {
  const { data: user } = useCurrentUser();
  const { data } = useApi(
    businessSettingsApi.get,
    {},
    {
      onError: (err) => toastError(TITLES.general, err),
    },
  );
  const { data: telegramBusiness } = useApi(businessSettingsApi.telegramBusiness, {});
  const editable = useCan().can('business.settings');
  return (
    <section>
      <Title order={3} mb="xs">
        Бизнес
      </Title>
      <Text size="sm" c="dimmed" mb="lg" maw={560}>
        {editable
          ? 'Правила студии для клиентов: напоминания, срок изменения записи, контакты и хранение данных.'
          : 'Правила студии для клиентов. Изменить их может суперпользователь.'}
      </Text>
      {data && user ? (
        <BusinessSettingsForm settings={data} editable={editable} telegramBusiness={telegramBusiness} />
      ) : (
        <Skeleton h={420} maw={560} />
      )}
    </section>
  );
}

export default function Settings() {
  // A host changes only their own profile, password and alerts: addresses and the studio's rules are not theirs.
  const { can } = useCan();
  // A link may open a tab (the fiscal banner's «Настройки → Фискализация»).
  const asked = new URLSearchParams(useSearch()).get('tab');
  return (
    <>
      <PageHeader title="Настройки" />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Tabs
          key={asked ?? 'profile'}
          defaultValue={asked && TABS.includes(asked) ? asked : 'profile'}
          color="teal"
          keepMounted={false}
        >
          <Tabs.List mb="xl">
            <Tabs.Tab value="profile">Профиль</Tabs.Tab>
            <Tabs.Tab value="notifications">Уведомления</Tabs.Tab>
            {can('catalog.manage') && <Tabs.Tab value="addresses">Адреса</Tabs.Tab>}
            {can('business.read') && <Tabs.Tab value="business">Бизнес</Tabs.Tab>}
            {can('fiscal.read') && <Tabs.Tab value="fiscal">Фискализация</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="profile">
            <Profile />
          </Tabs.Panel>
          <Tabs.Panel value="notifications">
            <NotificationSettings />
          </Tabs.Panel>
          {can('catalog.manage') && (
            <Tabs.Panel value="addresses">
              <AddressList />
            </Tabs.Panel>
          )}
          {can('business.read') && (
            <Tabs.Panel value="business">
              <BusinessSettings />
            </Tabs.Panel>
          )}
          {can('fiscal.read') && (
            <Tabs.Panel value="fiscal">
              <Suspense fallback={<Skeleton h={420} maw={600} />}>
                <FiscalSettings />
              </Suspense>
            </Tabs.Panel>
          )}
        </Tabs>
      </Paper>
    </>
  );
}
