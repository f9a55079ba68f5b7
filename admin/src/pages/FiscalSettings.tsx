import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Paper,
  PasswordInput,
  Radio,
  Select,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { fiscalApi } from '../../../contract/endpoints/fiscal';
import {
  FiscalSettings,
  FISCAL_MODE_LABELS,
  type FiscalMode,
  type FiscalProbe,
  type FiscalStatus,
  type FiscalTaxLabel,
} from '../../../contract/fiscal';
import { formatDateTime } from '../../../contract/format';
import { call } from '../api';
import { config } from '../config';
import { TRAINING_WARNING } from '../components/FiscalReceipt';
import { runChange } from '../mutations';
import { MESSAGES, TITLES, toastError } from '../notify';
import { useApi } from '../query';
import { useCan } from '../session';

/*
 * Настройки → Фискализация: how the studio's receipts are issued (off, its L-PFR / V-PFR, or typed from
 * its own register), training, the cashier, the tax labels chosen from the PFR's own, when a certificate
 * is fiscalized; the PFR's state and its PIN. The owner changes them; a manager reads them.
 */

const MODE_HINTS: Record<FiscalMode, string> = {
  off: 'Чеки не выдаются (как раньше)',
  lpfr: 'Каждый платёж отправляется в PFR студии; чек приходит от PFR',
  manual: 'Касса студии печатает чек сама; сотрудник вводит номер чека к каждому платежу',
};

const when = (iso: string | null) => (iso ? formatDateTime(iso, config.businessTimezone) : '—');

const labelOption = (l: FiscalTaxLabel) => ({ value: l.label, label: `${l.label} — ${l.rate} % (${l.category})` });

/** What the PFR answered, in one or two lines. */
function ProbeLine({ probe }: { probe: FiscalProbe }) {
  if (!probe.reachable)
    return (
      <Text size="sm" c="red.9" data-testid="pfr-probe" style={{ overflowWrap: 'anywhere' }}>
        {probe.error ?? 'PFR не отвечает'}
      </Text>
    );
  return (
    <Text
      size="sm"
      c={probe.pin_required ? undefined : 'teal.9'}
      data-testid="pfr-probe"
      style={{ overflowWrap: 'anywhere' }}
    >
      PFR на связи{probe.environment ? `: среда «${probe.environment}»` : ''}
      {probe.uid ? `, UID ${probe.uid}` : ''}
      {probe.pin_required ? '. Ждёт PIN' : ''}
      {probe.labels.length > 0 ? `. Метки: ${probe.labels.map((l) => `${l.label} ${l.rate} %`).join(', ')}` : ''}
    </Text>
  );
}

/** The PIN the PFR asks for: it goes to the PFR only. */
function PinForm() {
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        void runChange(() => call(fiscalApi.pin, { body: { pin } }), 'PFR принял PIN').then(() => {
          setBusy(false);
          setPin('');
        });
      }}
    >
      <Group align="flex-end" gap="sm" wrap="wrap" mt="sm">
        <PasswordInput
          label="PIN-код PFR"
          description="4 цифры элемента безопасности; не сохраняется"
          value={pin}
          onChange={(e) => setPin(e.currentTarget.value)}
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          w={260}
          visibilityToggleButtonProps={{ 'aria-label': 'Показать PIN' }}
        />
        <Button type="submit" loading={busy} disabled={pin.length !== 4}>
          Ввести PIN
        </Button>
      </Group>
    </form>
  );
}

/** The PFR and the fiscal outbox now. */
function StatePanel({ status, owner, onRefresh }: { status: FiscalStatus; owner: boolean; onRefresh: () => void }) {
  const h = status.health;
  return (
    <Paper withBorder radius="md" p="md" data-testid="fiscal-state">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600}>Состояние: {FISCAL_MODE_LABELS[status.mode]}</Text>
          <Button size="compact-sm" variant="default" onClick={onRefresh}>
            Обновить
          </Button>
        </Group>
        {status.pfr && <ProbeLine probe={status.pfr} />}
        {status.pfr?.pin_required &&
          (owner ? (
            <Alert color="orange" variant="light" title="PFR ждёт PIN">
              Пока PIN не введён, чеки ждут и не выдаются.
              <PinForm />
            </Alert>
          ) : (
            <Alert color="orange" variant="light">
              PFR ждёт PIN: его вводит владелец студии.
            </Alert>
          ))}
        {status.mode === 'manual' ? (
          <Text size="sm" data-testid="fiscal-queue">
            Ждут номера из кассы студии: {status.manual_waiting}. Их показывает Касса с отметкой «Без чека».
          </Text>
        ) : (
          <Text size="sm" data-testid="fiscal-queue">
            Ожидают отправки: {h.waiting} · нужен документ покупателя: {h.needs_buyer} · отклонены: {h.refused}
            {h.oldest_waiting_at ? ` · самый старый с ${when(h.oldest_waiting_at)}` : ''}
          </Text>
        )}
        {h.last_error && (
          <Text size="sm" c="red.9" style={{ overflowWrap: 'anywhere' }}>
            Последняя проблема{h.since ? ` (${when(h.since)})` : ''}: {h.last_error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function SettingsForm({
  settings,
  status,
  editable,
}: {
  settings: FiscalSettings;
  status: FiscalStatus | undefined;
  editable: boolean;
}) {
  const {
    register,
    control,
    handleSubmit,
    getValues,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<FiscalSettings>({ mode: 'onBlur', resolver: zodResolver(FiscalSettings), values: settings });
  const [probe, setProbe] = useState<FiscalProbe | null>(null);
  const [checking, setChecking] = useState(false);
  const mode = useWatch({ control, name: 'fiscal_mode' });
  const training = useWatch({ control, name: 'fiscal_training' });
  // The labels to choose from are the PFR's: from the last «Проверить связь», else the status.
  const labels = (probe?.reachable ? probe.labels : null) ?? status?.pfr?.labels ?? [];

  const check = async () => {
    setChecking(true);
    try {
      setProbe(await call(fiscalApi.check, { body: { fiscal_pfr_url: getValues('fiscal_pfr_url') } }));
    } catch (err) {
      toastError(TITLES.general, err);
    } finally {
      setChecking(false);
    }
  };

  const onSubmit = async (body: FiscalSettings) => {
    await runChange(() => call(fiscalApi.updateSettings, { body }), MESSAGES.settingsSaved);
  };

  const labelSelect = (
    name: 'fiscal_label_workshop' | 'fiscal_label_certificate' | 'fiscal_label_pass',
    label: string,
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const known = labels.map(labelOption);
        const data =
          field.value && !known.some((o) => o.value === field.value)
            ? [{ value: field.value, label: `${field.value} (нет среди ставок PFR)` }, ...known]
            : known;
        return (
          <Select
            label={label}
            placeholder={labels.length === 0 ? 'метки придут от PFR' : 'не выбрана'}
            data={data}
            clearable
            disabled={!editable || data.length === 0}
            name={field.name}
            ref={field.ref}
            value={field.value || null}
            onBlur={field.onBlur}
            onChange={(v) => field.onChange(v ?? '')}
            error={fieldState.error?.message}
          />
        );
      }}
    />
  );

  return (
    <form onSubmit={handleSubmit(onSubmit)}>
      <Stack gap="lg" maw={600}>
        <Controller
          control={control}
          name="fiscal_mode"
          render={({ field }) => (
            <Radio.Group
              label="Как выдаются чеки"
              name={field.name}
              value={field.value}
              onChange={(v) => field.onChange(v as FiscalMode)}
            >
              <Stack gap="xs" mt="xs">
                {(['off', 'lpfr', 'manual'] as const).map((m) => (
                  <Radio
                    key={m}
                    value={m}
                    label={FISCAL_MODE_LABELS[m]}
                    description={MODE_HINTS[m]}
                    disabled={!editable}
                  />
                ))}
              </Stack>
            </Radio.Group>
          )}
        />
        {mode === 'lpfr' && (
          <Stack gap="xs">
            <Group align="flex-end" gap="sm" wrap="wrap">
              <TextInput
                label="Адрес PFR"
                description="L-PFR на компьютере студии или V-PFR, например http://127.0.0.1:7555"
                disabled={!editable}
                error={errors.fiscal_pfr_url?.message}
                style={{ flex: '1 1 260px' }}
                {...register('fiscal_pfr_url')}
              />
              {editable && (
                <Button variant="default" onClick={() => void check()} loading={checking}>
                  Проверить связь
                </Button>
              )}
            </Group>
            {probe && <ProbeLine probe={probe} />}
          </Stack>
        )}
        {mode !== 'off' && (
          <>
            <Controller
              control={control}
              name="fiscal_training"
              render={({ field }) => (
                <Switch
                  label="Учебный режим"
                  description="Чеки выдаются как учебные (Обука): для тренировки сотрудников, без фискальной силы"
                  disabled={!editable}
                  name={field.name}
                  ref={field.ref}
                  checked={field.value}
                  onBlur={field.onBlur}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                />
              )}
            />
            {training && (
              <Alert color="orange" variant="light" title={TRAINING_WARNING} data-testid="training-warning">
                Пока режим включён, деньги не фискализированы: выключите его, когда сотрудники освоятся.
              </Alert>
            )}
            <TextInput
              label="Кассир"
              description="Имя на чеке"
              disabled={!editable}
              error={errors.fiscal_cashier?.message}
              {...register('fiscal_cashier')}
            />
          </>
        )}
        {mode === 'lpfr' && (
          <Stack gap="sm">
            <Title order={4} size="h5">
              Налоговые метки
            </Title>
            <Text size="sm" c="gray.7">
              Метки и ставки — те, что сейчас действуют в PFR; ставку не вводят вручную.
            </Text>
            {labelSelect('fiscal_label_workshop', 'Мастер-классы')}
            {labelSelect('fiscal_label_certificate', 'Сертификаты')}
            {labelSelect('fiscal_label_pass', 'Абонементы')}
          </Stack>
        )}
        {mode !== 'off' && (
          <Controller
            control={control}
            name="fiscal_certificate_receipts"
            render={({ field }) => (
              <Radio.Group
                label="Чек за подарочный сертификат"
                description="Закон о фискализации не решает однозначно, как оформлять многоцелевой ваучер (сертификат на сумму, которым платят за любой мастер-класс). Выберите вместе с бухгалтером."
                name={field.name}
                value={field.value}
                onChange={(v) => field.onChange(v)}
              >
                <Stack gap="xs" mt="xs">
                  <Radio
                    value="redemption"
                    label="При использовании"
                    description="Продажа сертификата без чека; мастер-класс, оплаченный им, продаётся с оплатой ваучером"
                    disabled={!editable}
                  />
                  <Radio
                    value="sale"
                    label="При продаже"
                    description="Авансовый чек при продаже сертификата; его закрывает чек мастер-класса"
                    disabled={!editable}
                  />
                </Stack>
              </Radio.Group>
            )}
          />
        )}
        {mode === 'lpfr' && (
          <Controller
            control={control}
            name="fiscal_close_buyer_id"
            render={({ field }) => (
              <Radio.Group
                label="Документ покупателя при закрытии аванса"
                description="Закон не решает, нужен ли документ покупателя на чеке, закрывающем аванс при итоговой продаже (покупателю его не выдают); с «Спрашивать» каждого, кто платил заранее, перед итоговым чеком просят в Telegram назвать документ."
                name={field.name}
                value={field.value}
                onChange={(v) => field.onChange(v)}
              >
                <Stack gap="xs" mt="xs">
                  <Radio
                    value="ask"
                    label="Спрашивать"
                    description="Чек закрытия аванса ждёт документ покупателя, если он ещё не известен"
                    disabled={!editable}
                  />
                  <Radio
                    value="omit"
                    label="Не указывать"
                    description="Чек закрытия аванса уходит без документа; при возврате денег документ нужен всегда"
                    disabled={!editable}
                  />
                </Stack>
              </Radio.Group>
            )}
          />
        )}
        {editable && (
          <Button type="submit" loading={isSubmitting} disabled={!isDirty} w="fit-content">
            Сохранить
          </Button>
        )}
      </Stack>
    </form>
  );
}

/** The tab's content. */
export default function FiscalSettingsPage() {
  const { can } = useCan();
  const editable = can('fiscal.settings');
  const onError = { onError: (err: unknown) => toastError(TITLES.general, err) };
  const { data: settings } = useApi(fiscalApi.settings, {}, onError);
  const { data: status, mutate } = useApi(fiscalApi.status, {}, onError);
  return (
    <section aria-labelledby="fiscal-title">
      <Title order={3} id="fiscal-title" mb="xs">
        Фискализация
      </Title>
      <Text size="sm" c="dimmed" mb="lg" maw={600}>
        {editable
          ? 'Фискальные чеки на каждый платёж: аванс при оплате заранее, продажа при оказании услуги, возврат при возврате денег.'
          : 'Фискальные чеки на каждый платёж. Изменить настройки может владелец студии.'}
      </Text>
      <Stack gap="lg">
        {status ? (
          <StatePanel status={status} owner={editable} onRefresh={() => void mutate()} />
        ) : (
          <Skeleton h={90} maw={600} />
        )}
        {settings ? (
          <SettingsForm settings={settings} status={status} editable={editable} />
        ) : (
          <Skeleton h={420} maw={600} />
        )}
      </Stack>
    </section>
  );
}
