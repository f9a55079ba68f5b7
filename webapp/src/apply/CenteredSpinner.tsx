import { Spinner } from '@telegram-apps/telegram-ui';
import { useT } from '../i18n';

/** What a screen shows while its lazy part loads (its own file: the lazy parts use it too). */
export function CenteredSpinner() {
  const T = useT();
  return (
    <div className="centered" role="progressbar" aria-label={T.common.loading}>
      <Spinner size="l" />
    </div>
  );
}
