import { useCallback, useEffect, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Button, Cell, Input, Radio, Section, Switch, Textarea } from '@telegram-apps/telegram-ui';
import type { z } from 'zod';
import type { RecordSource, RecordView, ScheduleOpen } from '../../../contract';
// The values from their own modules: contract/index would build every schema of the API when this loads.
import { PEOPLE_MAX, PEOPLE_MIN } from '../../../contract/common';
import { RECORD_SOURCES } from '../../../contract/records';
import { RecordCreateFields } from '../../../contract/forms';
import { recordsApi } from '../../../contract/endpoints/records';
import { ApiError, call } from '../api';
import { config } from '../config';
import { ru, useT, workshopTitle } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { haptic, telegramUser, uiPlatform } from '../tg';
import {
  bookingMade,
  hasSecondaryButton,
  hasTelegramClient,
  loadDraft,
  saveDraft,
  setClosingConfirmation,
} from '../tg-native';
import { useMainButton, useSecondaryButton } from '../ui/useMainButton';
import { Notice } from '../ui/Notice';
import { PrivacySheet } from '../ui/PrivacySheet';
import { Stepper } from '../ui/Stepper';
import { PriceExtras, type Extras } from './PriceExtras';
import { useCertificateTexts } from '../i18n/certificates';
import { toast } from '../ui/toast';
import { IconCalendar } from '../ui/icons';
import '../later.css';

/** The contact form's draft in Telegram's DeviceStorage: what a customer types and would not want to type again. */
const DRAFT_KEY = 'contact-draft';
const DRAFT_FIELDS = ['name', 'last_name', 'comment', 'has_allergy', 'allergy_type'] as const;
const DRAFT_SAVE_MS = 400;

export default function ContactStep({
  session,
  showBack,
  onBack,
  onDone,
  onStale,
  prefill,
  certificate = null,
}: {
  session: ScheduleOpen;
  /** A certificate code the mini-app was opened with (the bot's link): «У меня есть сертификат» is filled in. */
  certificate?: string | null;
  /** "Записаться снова": the last booking's party size and allergy. */
  prefill?: { people_count: number; has_allergy: boolean; allergy_type: string | null };
  showBack: boolean;
  onBack: () => void;
  onDone: (view: RecordView) => void;
  onStale: () => void;
}) {
  const T = useT();
  // The form check's messages are Russian: another language shows its own text for the field.
  const fieldError = (message: string | undefined, key: keyof typeof T.contact.errors) =>
    T === ru ? message : T.contact.errors[key];
  const user = telegramUser();
  // telegram-ui shows an Input's header on the base (Android, desktop) layout only; iOS gets the inline label.
  const ios = uiPlatform() === 'ios';
  const [submitting, setSubmitting] = useState(false);
  const [privacyOpen, setPrivacyOpen] = useState(false);
  const closePrivacy = useCallback(() => setPrivacyOpen(false), [setPrivacyOpen]);
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
  const C = useCertificateTexts();
  const [extras, setExtras] = useState<Extras>({ certificate_code: null, promo_code: null, pending: false });

  const submit = handleSubmit(
    async (values) => {
      if (!user || extras.pending) {
        haptic('error');
        if (extras.pending) toast({ kind: 'error', title: C.apply.notApplied });
        return;
      }
      setSubmitting(true);
      try {
        // Submitting under the consent line is the customer's consent (the server refuses a booking without it).
        const view = await call(recordsApi.create, {
          body: {
            schedule_id: session.id,
            ...values,
            consent: true,
            ...(extras.certificate_code && { certificate_code: extras.certificate_code }),
            ...(extras.promo_code && { promo_code: extras.promo_code }),
          },
        });
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
          title: T.contact.failedTitle,
          description: refused ? T.contact.refused(err.detail) : T.contact.failed,
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
  const action = queued ? T.contact.queue : T.contact.book;
  const booking = { text: action, active: Boolean(user) && !submitting, progress: submitting };
  // A booking that would wait in the queue, on a client with the SecondaryButton: other dates (back to the
  // schedule) are the main action and the queue the second one beside it (elsewhere the queue stays the MainButton).
  const queueAside = native && queued && hasSecondaryButton();
  useMainButton(
    native ? (queueAside ? { text: T.native.otherDates, active: !submitting, progress: false } : booking) : null,
    () => (queueAside ? onBack() : void submit()),
  );
  useSecondaryButton(queueAside ? booking : null, () => void submit());
  // A filled form is not lost to a stray swipe: Telegram asks before closing.
  useEffect(() => {
    setClosingConfirmation(isDirty);
    return () => setClosingConfirmation(false);
  }, [isDirty]);

  return (
    <form className="contact-form" onSubmit={submit} noValidate aria-label={T.contact.formLabel}>
      <Section header={T.common.workshop}>
        <Cell
          before={<IconCalendar className="cell-icon" />}
          subhead={`${T.fmt.date(session.date, tz)} · ${T.fmt.time(session.date, tz)}`}
          subtitle={`${session.address.title} · ${T.fmt.price(session.workshop.price)}`}
          multiline
          after={
            showBack ? (
              <Button type="button" size="s" mode="bezeled" onClick={onBack}>
                {T.common.back}
              </Button>
            ) : undefined
          }
        >
          {workshopTitle(session.workshop)}
        </Cell>
      </Section>

      {!user && (
        <div className="section-notice">
          <Notice tone="danger" title={T.common.noTelegramTitle}>
            {T.contact.noTelegramUser}
          </Notice>
        </div>
      )}

      <Section
        header={T.contact.formLabel}
        footer={
          errors.name ? (
            <Section.Footer>
              <span className="field-error" role="alert">
                {fieldError(errors.name.message, 'name')}
              </span>
            </Section.Footer>
          ) : undefined
        }
      >
        <Input
          header={T.common.name}
          before={ios ? <span className="input-label">{T.common.name}</span> : undefined}
          placeholder={T.common.required}
          aria-label={T.common.name}
          aria-invalid={Boolean(errors.name)}
          autoComplete="given-name"
          status={errors.name ? 'error' : undefined}
          {...register('name')}
        />
        <Input
          header={T.common.lastName}
          before={ios ? <span className="input-label">{T.common.lastName}</span> : undefined}
          placeholder={T.common.optional}
          aria-label={T.common.lastName}
          autoComplete="family-name"
          {...register('last_name')}
        />
      </Section>

      <Section
        header={T.common.peopleCount}
        footer={
          queued ? (
            <Section.Footer>
              <span className="field-warning" role="status">
                {session.places_available > 0 ? T.contact.queuedSome(session.places_available) : T.contact.queuedNone}
              </span>
            </Section.Footer>
          ) : (
            T.contact.peopleRange(PEOPLE_MIN, PEOPLE_MAX)
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
                  label={T.common.peopleCount}
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
          {T.contact.participants}
        </Cell>
      </Section>

      <PriceExtras session={session} people={people} initialCertificate={certificate} onChange={setExtras} />

      <Section
        header={T.contact.allergy}
        footer={
          errors.allergy_type ? (
            <Section.Footer>
              <span className="field-error" role="alert">
                {fieldError(errors.allergy_type.message, 'allergy')}
              </span>
            </Section.Footer>
          ) : undefined
        }
      >
        <Cell
          Component="label"
          after={<Switch aria-label={T.common.hasAllergy} {...register('has_allergy')} />}
          multiline
        >
          {T.common.hasAllergyLong}
        </Cell>
        {hasAllergy && (
          <Input
            header={T.common.allergyWhat}
            placeholder={T.common.allergyPlaceholder}
            aria-label={T.common.allergyWhat}
            status={errors.allergy_type ? 'error' : undefined}
            {...register('allergy_type')}
          />
        )}
      </Section>

      <Section
        header={`${T.contact.firstTime} *`}
        footer={
          errors.is_first_time ? (
            <Section.Footer>
              <span className="field-error" role="alert">
                {fieldError(errors.is_first_time.message, 'firstTime')}
              </span>
            </Section.Footer>
          ) : undefined
        }
      >
        <div role="radiogroup" aria-label={T.contact.firstTime} aria-invalid={Boolean(errors.is_first_time)}>
          {(
            [
              ['yes', T.contact.firstYes],
              ['no', T.contact.firstNo],
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

      <Section header={T.contact.source}>
        <div role="radiogroup" aria-label={T.contact.source}>
          {(Object.keys(RECORD_SOURCES) as RecordSource[])
            .map((code) => [code, T.contact.sources[code]] as const)
            .map(([code, label]) => (
              <Cell
                key={code}
                Component="label"
                multiline
                before={<Radio value={code} aria-label={label} {...register('source')} />}
              >
                {label}
              </Cell>
            ))}
        </div>
      </Section>

      <Section header={T.common.comment}>
        <Textarea
          placeholder={T.contact.commentPlaceholder}
          aria-label={T.common.comment}
          rows={3}
          {...register('comment')}
        />
      </Section>

      <p className="consent-line">
        {T.common.consent(action)}{' '}
        <button type="button" className="link-button" onClick={() => setPrivacyOpen(true)}>
          {T.common.consentMore}
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
