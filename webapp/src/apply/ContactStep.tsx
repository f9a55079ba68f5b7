import { useCallback, useEffect, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Button, Cell, Input, Radio, Section, Switch, Textarea } from '@telegram-apps/telegram-ui';
import type { z } from 'zod';
import {
  PEOPLE_MAX,
  PEOPLE_MIN,
  RECORD_SOURCES,
  type RecordSource,
  type RecordView,
  type ScheduleOpen,
} from '../../../contract';
import { RecordCreateFields } from '../../../contract/forms';
import { formatDate, formatPrice, formatTime } from '../../../contract/format';
import { recordsApi } from '../../../contract/endpoints/records';
import { ApiError, call } from '../api';
import { config } from '../config';
import {
  bookingMade,
  haptic,
  hasTelegramClient,
  loadDraft,
  saveDraft,
  setClosingConfirmation,
  telegramUser,
  uiPlatform,
} from '../tg';
import { useMainButton } from '../ui/useMainButton';
import { Notice } from '../ui/Notice';
import { PrivacySheet } from '../ui/PrivacySheet';
import { Stepper } from '../ui/Stepper';
import { toast } from '../ui/toast';
import { IconCalendar } from '../ui/icons';

/** The contact form's draft in Telegram's DeviceStorage: what a customer types and would not want to type again. */
const DRAFT_KEY = 'contact-draft';
const DRAFT_FIELDS = ['name', 'last_name', 'comment', 'has_allergy', 'allergy_type'] as const;
const DRAFT_SAVE_MS = 400;

const NO_TELEGRAM_USER =
  'Не удалось получить данные Telegram. Откройте запись через бота в Telegram, чтобы записаться.';

export default function ContactStep({
  session,
  showBack,
  onBack,
  onDone,
  onStale,
  prefill,
}: {
  session: ScheduleOpen;
  /** "Записаться снова": the last booking's party size and allergy. */
  prefill?: { people_count: number; has_allergy: boolean; allergy_type: string | null };
  showBack: boolean;
  onBack: () => void;
  onDone: (view: RecordView) => void;
  onStale: () => void;
}) {
  const user = telegramUser();
  // telegram-ui shows an Input's header on the base (Android, desktop) layout only; iOS gets the inline label.
  const ios = uiPlatform() === 'ios';
  const [submitting, setSubmitting] = useState(false);
  const [privacyOpen, setPrivacyOpen] = useState(false);
  const closePrivacy = useCallback(() => setPrivacyOpen(false), []);
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors, isDirty },
  } = useForm<z.input<typeof RecordCreateFields>, unknown, z.output<typeof RecordCreateFields>>({
    resolver: zodResolver(RecordCreateFields),
    defaultValues: {
      name: user?.first_name ?? '',
      last_name: user?.last_name ?? '',
      people_count: prefill?.people_count ?? PEOPLE_MIN,
      comment: '',
      has_allergy: prefill?.has_allergy ?? false,
      allergy_type: prefill?.allergy_type ?? '',
      source: null,
      is_first_time: undefined,
    },
  });
  const [people, hasAllergy] = useWatch({ control, name: ['people_count', 'has_allergy'] });
  const draft = useWatch({ control, name: DRAFT_FIELDS });

  // The draft Telegram kept on the device (name, allergy, comment) comes back when the form reopens…
  useEffect(() => {
    let live = true;
    void loadDraft(DRAFT_KEY).then((raw) => {
      if (!live || !raw) return;
      try {
        const saved = JSON.parse(raw) as Record<string, unknown>;
        for (const field of DRAFT_FIELDS) {
          const value = saved[field];
          if (field === 'has_allergy' ? value === true : typeof value === 'string' && value)
            setValue(field, value as never, { shouldDirty: true });
        }
      } catch {
        // Not a draft of ours: ignored.
      }
    });
    return () => {
      live = false;
    };
  }, [setValue]);
  // …and is kept as it is typed.
  const draftJson = JSON.stringify(Object.fromEntries(DRAFT_FIELDS.map((f, i) => [f, draft[i]])));
  useEffect(() => {
    if (!isDirty) return;
    const timer = setTimeout(() => saveDraft(DRAFT_KEY, draftJson), DRAFT_SAVE_MS);
    return () => clearTimeout(timer);
  }, [draftJson, isDirty]);
  const queued = people > session.places_available;
  const tz = config().businessTimezone;

  const submit = handleSubmit(
    async (values) => {
      if (!user) {
        haptic('error');
        return;
      }
      setSubmitting(true);
      try {
        // Submitting under the consent line is the customer's consent (the server refuses a booking without it).
        const view = await call(recordsApi.create, { body: { schedule_id: session.id, ...values, consent: true } });
        haptic('success');
        saveDraft(DRAFT_KEY, null);
        bookingMade();
        onDone(view);
      } catch (err) {
        haptic('error');
        const refused =
          err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 403;
        toast({
          kind: 'error',
          title: 'Что-то пошло не так.',
          description: refused ? `Записаться не получилось. ${err.detail}` : 'Записаться не получилось',
        });
        if (err instanceof ApiError && (err.status === 404 || err.status === 409)) onStale();
      } finally {
        setSubmitting(false);
      }
    },
    () => haptic('error'),
  );

  // Inside Telegram the primary action is Telegram's MainButton; elsewhere the page's own button.
  const native = hasTelegramClient();
  const action = queued ? 'Встать в очередь' : 'Записаться';
  useMainButton(
    native ? { text: action, active: Boolean(user) && !submitting, progress: submitting } : null,
    () => void submit(),
  );
  // A filled form is not lost to a stray swipe: Telegram asks before closing.
  useEffect(() => {
    setClosingConfirmation(isDirty);
    return () => setClosingConfirmation(false);
  }, [isDirty]);

  return (
    <form className="contact-form" onSubmit={submit} noValidate aria-label="Контактные данные">
      <Section header="Мастер-класс">
        <Cell
          before={<IconCalendar className="cell-icon" />}
          subhead={`${formatDate(session.date, tz)} · ${formatTime(session.date, tz)}`}
          subtitle={`${session.address.title} · ${formatPrice(session.workshop.price)}`}
          multiline
          after={
            showBack ? (
              <Button type="button" size="s" mode="bezeled" onClick={onBack}>
                Назад
              </Button>
            ) : undefined
          }
        >
          {session.workshop.title}
        </Cell>
      </Section>

      {!user && (
        <div className="section-notice">
          <Notice tone="danger" title="Нет данных Telegram">
            {NO_TELEGRAM_USER}
          </Notice>
        </div>
      )}

      <Section
        header="Контактные данные"
        footer={
          errors.name ? (
            <Section.Footer>
              <span className="field-error" role="alert">
                {errors.name.message}
              </span>
            </Section.Footer>
          ) : undefined
        }
      >
        <Input
          header="Имя"
          before={ios ? <span className="input-label">Имя</span> : undefined}
          placeholder="Обязательно"
          aria-label="Имя"
          aria-invalid={Boolean(errors.name)}
          autoComplete="given-name"
          status={errors.name ? 'error' : undefined}
          {...register('name')}
        />
        <Input
          header="Фамилия"
          before={ios ? <span className="input-label">Фамилия</span> : undefined}
          placeholder="Необязательно"
          aria-label="Фамилия"
          autoComplete="family-name"
          {...register('last_name')}
        />
      </Section>

      <Section
        header="Количество человек"
        footer={
          queued ? (
            <Section.Footer>
              <span className="field-warning" role="status">
                {session.places_available > 0
                  ? `Свободных мест: ${session.places_available}. Запись будет добавлена в очередь, и мы сообщим вам в Telegram, когда освободятся места.`
                  : 'Свободных мест нет. Запись будет добавлена в очередь, и мы сообщим вам в Telegram, когда освободятся места.'}
              </span>
            </Section.Footer>
          ) : (
            `Можно записать от ${PEOPLE_MIN} до ${PEOPLE_MAX} человек`
          )
        }
      >
        <Cell
          Component="div"
          after={
            <Controller
              control={control}
              name="people_count"
              render={({ field }) => (
                <Stepper
                  label="Количество человек"
                  value={field.value}
                  min={PEOPLE_MIN}
                  max={PEOPLE_MAX}
                  onChange={(v) => {
                    haptic('selection');
                    field.onChange(v);
                  }}
                />
              )}
            />
          }
        >
          Участников
        </Cell>
      </Section>

      <Section
        header="Аллергия"
        footer={
          errors.allergy_type ? (
            <Section.Footer>
              <span className="field-error" role="alert">
                {errors.allergy_type.message}
              </span>
            </Section.Footer>
          ) : undefined
        }
      >
        <Cell Component="label" after={<Switch aria-label="Есть аллергия" {...register('has_allergy')} />} multiline>
          Есть аллергия на продукты
        </Cell>
        {hasAllergy && (
          <Input
            header="На что аллергия"
            placeholder="На что аллергия?"
            aria-label="На что аллергия"
            status={errors.allergy_type ? 'error' : undefined}
            {...register('allergy_type')}
          />
        )}
      </Section>

      <Section
        header="Вы у нас впервые? *"
        footer={
          errors.is_first_time ? (
            <Section.Footer>
              <span className="field-error" role="alert">
                {errors.is_first_time.message}
              </span>
            </Section.Footer>
          ) : undefined
        }
      >
        <div role="radiogroup" aria-label="Вы у нас впервые?" aria-invalid={Boolean(errors.is_first_time)}>
          {(
            [
              ['yes', 'Да, впервые'],
              ['no', 'Нет, уже был(а)'],
            ] as const
          ).map(([value, label]) => (
            <Cell
              key={value}
              Component="label"
              before={<Radio value={value} aria-label={label} {...register('is_first_time')} />}
            >
              {label}
            </Cell>
          ))}
        </div>
      </Section>

      <Section header="Откуда вы о нас узнали?">
        <div role="radiogroup" aria-label="Откуда вы о нас узнали?">
          {(Object.entries(RECORD_SOURCES) as [RecordSource, string][]).map(([code, label]) => (
            <Cell
              key={code}
              Component="label"
              before={<Radio value={code} aria-label={label} {...register('source')} />}
            >
              {label}
            </Cell>
          ))}
        </div>
      </Section>

      <Section header="Комментарий">
        <Textarea placeholder="Пожелания или вопросы" aria-label="Комментарий" rows={3} {...register('comment')} />
      </Section>

      <p className="consent-line">
        Нажимая «{queued ? 'Встать в очередь' : 'Записаться'}», вы соглашаетесь на обработку ваших персональных данных,
        включая сведения об аллергии, —{' '}
        <button type="button" className="link-button" onClick={() => setPrivacyOpen(true)}>
          подробнее
        </button>
        .
      </p>
      {privacyOpen && <PrivacySheet onClose={closePrivacy} />}

      {/* Inside Telegram the MainButton is the visible action; this one stays for screen readers and Enter. */}
      <div className={native ? 'visually-hidden' : 'submit-bar'}>
        <Button type="submit" size="l" stretched loading={submitting} disabled={!user || submitting}>
          {action}
        </Button>
      </div>
    </form>
  );
}
