import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { useLocation } from 'wouter';
import { Button, Cell, Input, Placeholder, Section, Switch } from '@telegram-apps/telegram-ui';
import { giftsApi } from '../../../contract/endpoints/gifts';
import { call, errorText } from '../api';
import { haptic, hasTelegramClient, setClosingConfirmation, telegramUser, uiPlatform } from '../tg';
import { useMainButton } from '../ui/useMainButton';
import { Notice } from '../ui/Notice';
import { PrivacySheet } from '../ui/PrivacySheet';
import { toast } from '../ui/toast';
import { IconPeople } from '../ui/icons';
import { ScheduleCells } from '../ui/ScheduleCells';
import { CenteredSpinner } from './ApplyPage';

/** A seat given by a friend: the session, then the new owner's name and allergy, then "Принять место". */
export default function GiftPage({ token }: { token: string }) {
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
    native && data ? { text: 'Принять место', active: Boolean(user) && !busy, progress: busy } : null,
    () => void accept(),
  );

  if (error)
    return (
      <Placeholder
        className="state"
        header="Ссылка недействительна"
        description={errorText(error)}
        action={
          <Button size="m" mode="bezeled" onClick={() => navigate('/apply', { replace: true })}>
            Выбрать мастер-класс
          </Button>
        }
      />
    );
  if (!data) return <CenteredSpinner />;

  const s = data.schedule;

  async function accept() {
    if (!name.trim()) {
      haptic('error');
      toast({ kind: 'error', title: 'Укажите имя' });
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
      toast({ kind: 'success', title: 'Место ваше!' });
      navigate(`/record/${view.record.id}`, { replace: true });
    } catch (err) {
      haptic('error');
      toast({ kind: 'error', title: 'Не удалось принять место', description: errorText(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="page" aria-label="Вам передают место">
      <header className="record-header">
        <h1 className="gift__title">{data.giver_name} передаёт вам место</h1>
      </header>
      {data.state === 'QUEUED' && (
        <div className="notices">
          <Notice tone="warning" title="Запись в очереди">
            {`Свободных мест пока нет: запись в очереди${data.queue_position ? `, место ${data.queue_position}` : ''}. Мы напишем в Telegram, когда место освободится.`}
          </Notice>
        </div>
      )}
      <Section header="Мастер-класс">
        <ScheduleCells schedule={s} />
        <Cell before={<IconPeople className="cell-icon" />} subhead="Количество человек">
          {data.people_count}
        </Cell>
      </Section>
      {!user && (
        <div className="section-notice">
          <Notice tone="danger" title="Нет данных Telegram">
            Откройте ссылку в Telegram, чтобы принять место.
          </Notice>
        </div>
      )}
      <Section header="Ваши данные">
        <Input
          header="Имя"
          before={ios ? <span className="input-label">Имя</span> : undefined}
          placeholder="Обязательно"
          aria-label="Имя"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Input
          header="Фамилия"
          before={ios ? <span className="input-label">Фамилия</span> : undefined}
          placeholder="Необязательно"
          aria-label="Фамилия"
          value={lastName}
          onChange={(e) => setLastName(e.target.value)}
        />
        <Cell
          Component="label"
          after={
            <Switch aria-label="Есть аллергия" checked={hasAllergy} onChange={(e) => setHasAllergy(e.target.checked)} />
          }
          multiline
        >
          Есть аллергия на продукты
        </Cell>
        {hasAllergy && (
          <Input
            header="На что аллергия"
            placeholder="На что аллергия?"
            aria-label="На что аллергия"
            value={allergy}
            onChange={(e) => setAllergy(e.target.value)}
          />
        )}
      </Section>
      <p className="consent-line">
        Нажимая «Принять место», вы соглашаетесь на обработку ваших персональных данных, включая сведения об аллергии, —{' '}
        <button type="button" className="link-button" onClick={() => setPrivacyOpen(true)}>
          подробнее
        </button>
        .
      </p>
      {privacyOpen && <PrivacySheet onClose={() => setPrivacyOpen(false)} />}
      <div className={native ? 'visually-hidden' : 'submit-bar'}>
        <Button size="l" stretched loading={busy} disabled={!user || busy} onClick={() => void accept()}>
          Принять место
        </Button>
      </div>
    </main>
  );
}
