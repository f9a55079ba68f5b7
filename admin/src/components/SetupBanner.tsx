import { Alert, Anchor } from '@mantine/core';
import { Link } from 'wouter';
import { studioApi } from '../../../contract/endpoints/studio';
import { useApi } from '../query';
import { useCan } from '../session';

/**
 * On the schedule, for the owner of a studio whose first-run wizard was left before «Готово» (an owner who
 * logged in by password, or left the wizard for the admin): back to it. A single studio is always set up.
 */
export function SetupBanner() {
  const { can } = useCan();
  const { data } = useApi(studioApi.get, can('business.settings') ? {} : null);
  if (!data || data.setup_done) return null;
  return (
    <Alert color="teal" variant="light" mb="md" data-testid="setup-banner">
      <Anchor component={Link} href="/welcome?setup=1" c="inherit" fw={600} td="underline">
        Завершите настройку студии
      </Anchor>
      : название, часовой пояс, первый адрес, мастер-класс и занятие.
    </Alert>
  );
}
