import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { useLocation } from 'wouter';
import { Button, Cell, Input, Placeholder, Section, Switch } from '@telegram-apps/telegram-ui';
import { giftsApi } from '../../../contract/endpoints/gifts';
import { call, errorText } from '../api';
import { useT } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { haptic, telegramUser, uiPlatform } from '../tg';
import { hasTelegramClient, setClosingConfirmation } from '../tg-native';
import { useMainButton } from '../ui/useMainButton';
import { Notice } from '../ui/Notice';
import { PrivacySheet } from '../ui/PrivacySheet';
import { toast } from '../ui/toast';
import { IconPeople } from '../ui/icons';
import { ScheduleCells } from '../ui/ScheduleCells';
import { CenteredSpinner } from './CenteredSpinner';
import '../later.css';

/** A seat given by a friend: the session, then the new owner's name and allergy, then "Принять место". */
export default function GiftPage({ token }: { token: string }) {
  const T = useT();
  const [, navigate] = useLocation();
  const user = telegramUser();
  const { data, error } = useSWR(['gift', token], () => call(giftsApi.view, { params: { token } }), {
    shouldRetryOnError: false,
    revalidateOnFocus: false,
  });
  const [name, setName] = useState(user?.first_name ?? '');
  const [lastName, setLastName] = useState(user?.last_name ?? '');
  const [hasAllergy, setHasAllergy] = useState(false);
  const [allergy, setAllergy] = useState('');
  const [busy, setBusy] = useState(false);
  const [privacyOpen, setPrivacyOpen] = useState(false);
  // What the friend typed is not lost to a stray swipe: Telegram asks before closing.
  const edited =
    name !== (user?.first_name ?? '') || lastName !== (user?.last_name ?? '') || hasAllergy || allergy !== '';
  useEffect(() => {
    setClosingConfirmation(edited);
    return () => setClosingConfirmation(false);
  }, [edited]);
  const ios = uiPlatform() === 'ios';
  const native = hasTelegramClient();
  useMainButton(
    native && data ? { text: T.gift.accept, active: Boolean(user) && !busy, progress: busy } : null,
    () => void accept(),
  );

  if (error)
    return (
      <Placeholder
        className="state"
        header={T.gift.invalid}
        description={errorText(error)}
        action={
          <Button size="m" mode="bezeled" onClick={() => navigate('/apply', { replace: true })}>
            {T.gift.pickWorkshop}
          </Button>
        }
      />
    );
  if (!data) return <CenteredSpinner />;

  const s = data.schedule;

  async function accept() {
    if (!name.trim()) {
      haptic('error');
      toast({ kind: 'error', title: T.gift.nameMissing });
      return;
    }
    setBusy(true);
    try {
      const view = await call(giftsApi.accept, {
        params: { token },
        body: {
          name: name.trim(),
          last_name: lastName.trim() || null,
          has_allergy: hasAllergy,
          allergy_type: hasAllergy ? allergy.trim() || null : null,
          consent: true,
        },
      });
      haptic('success');
      toast({ kind: 'success', title: T.gift.accepted });
      navigate(`/record/${view.record.id}`, { replace: true });
    } catch (err) {
      haptic('error');
      toast({ kind: 'error', title: T.gift.failed, description: errorText(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="page" aria-label={T.gift.label}>
      <header className="record-header">
        <h1 className="gift__title">{T.gift.title(data.giver_name)}</h1>
      </header>
      {data.state === 'QUEUED' && (
        <div className="notices">
          <Notice tone="warning" title={T.gift.queuedTitle}>
            {T.gift.queued(data.queue_position)}
          </Notice>
        </div>
      )}
      <Section header={T.common.workshop}>
        <ScheduleCells schedule={s} />
        <Cell before={<IconPeople className="cell-icon" />} subhead={T.common.peopleCount}>
          {data.people_count}
        </Cell>
      </Section>
      {!user && (
        <div className="section-notice">
          <Notice tone="danger" title={T.common.noTelegramTitle}>
            {T.gift.openInTelegram}
          </Notice>
        </div>
      )}
      <Section header={T.gift.yourData}>
        <Input
          header={T.common.name}
          before={ios ? <span className="input-label">{T.common.name}</span> : undefined}
          placeholder={T.common.required}
          aria-label={T.common.name}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Input
          header={T.common.lastName}
          before={ios ? <span className="input-label">{T.common.lastName}</span> : undefined}
          placeholder={T.common.optional}
          aria-label={T.common.lastName}
          value={lastName}
          onChange={(e) => setLastName(e.target.value)}
        />
        <Cell
          Component="label"
          after={
            <Switch
              aria-label={T.common.hasAllergy}
              checked={hasAllergy}
              onChange={(e) => setHasAllergy(e.target.checked)}
            />
          }
          multiline
        >
          {T.common.hasAllergyLong}
        </Cell>
        {hasAllergy && (
          <Input
            header={T.common.allergyWhat}
            placeholder={T.common.allergyPlaceholder}
            aria-label={T.common.allergyWhat}
            value={allergy}
            onChange={(e) => setAllergy(e.target.value)}
          />
        )}
      </Section>
      <p className="consent-line">
        {T.common.consent(T.gift.accept)}{' '}
        <button type="button" className="link-button" onClick={() => setPrivacyOpen(true)}>
          {T.common.consentMore}
        </button>
        .
      </p>
      {privacyOpen && <PrivacySheet onClose={() => setPrivacyOpen(false)} />}
      <div className={native ? 'visually-hidden' : 'submit-bar'}>
        <Button size="l" stretched loading={busy} disabled={!user || busy} onClick={() => void accept()}>
          {T.gift.accept}
        </Button>
      </div>
    </main>
  );
}
