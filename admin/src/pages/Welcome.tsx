import { useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Stepper,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { TimePicker } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { mutate } from 'swr';
import { Link, Redirect } from 'wouter';
import type { z } from 'zod';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Stepper.css';
import '../pageStyles';
import { AddressCreate } from '../../../contract/addresses';
import { DEFAULT_CAPACITY, DEFAULT_PRICE } from '../../../contract/common';
import { addressesApi } from '../../../contract/endpoints/addresses';
import { scheduleApi } from '../../../contract/endpoints/schedule';
import { studioApi } from '../../../contract/endpoints/studio';
import { workshopsApi } from '../../../contract/endpoints/workshops';
import { fromZonedInput, toZonedInput } from '../../../contract/format';
import { ScheduleCreate } from '../../../contract/schedule';
import { COMMON_TIME_ZONES, DEFAULT_TIME_ZONE, StudioUpdate, type StudioProfile } from '../../../contract/studio';
import { WorkshopCreate } from '../../../contract/workshops';
import type { Token } from '../../../contract/auth';
import { ApiError, CURRENT_USER_KEY, call, isLoggedIn, messageOf, setToken } from '../api';
import { AuthCard } from '../components/AuthCard';
import { DateField } from '../components/DateField';
import { IconChefHat } from '../components/icons';
import { PageLoader } from '../components/PageLoader';
import { withBase } from '../config';
import { defaultSessionInput } from '../forms/ScheduleForm';
import { useApi } from '../query';
import { useCan, useCurrentUser } from '../session';

/*
 * /welcome: where the platform bot's one-time link lands (`?token=…`: the owner is logged in by it, and
 * the token leaves the address bar at once), and the first-run wizard: the studio's name, its time zone,
 * a first address, a first workshop and a first session, each but the name skippable; «Готово» marks the
 * setup done and opens the schedule. An owner comes back to it from the schedule's banner (/welcome?setup=1).
 */

/** One redeem per token, however often the page mounts (React's StrictMode mounts it twice): a link works once. */
const redeeming = new Map<string, Promise<Token>>();
const redeemOnce = (token: string) => {
  let p = redeeming.get(token);
  if (!p) redeeming.set(token, (p = call(studioApi.telegramLink, { body: { token } })));
  return p;
};

type Errors = Record<string, string>;

/** A failed save's messages by field: a 422's own field messages, anything else under `field`. */
function errorsOf(err: unknown, field: string): Errors {
  const list = err instanceof ApiError ? (err.body as { errors?: { loc?: unknown[]; msg?: string }[] })?.errors : null;
  if (err instanceof ApiError && err.status === 422 && Array.isArray(list) && list.length) {
    const out: Errors = {};
    for (const e of list) {
      const name = typeof e.loc?.[1] === 'string' ? e.loc[1] : field;
      out[name] ??= e.msg ?? err.detail;
    }
    return out;
  }
  return { [field]: messageOf(err) };
}

/** A form's own check (the contract's schema) before anything is sent: its messages by field. */
function issuesOf(result: z.ZodSafeParseResult<unknown>, field: string): Errors | null {
  if (result.success) return null;
  const out: Errors = {};
  for (const issue of result.error.issues) out[String(issue.path[0] ?? field)] ??= issue.message;
  return out;
}

/** «Белград — Europe/Belgrade (GMT+1)»: found by the city or by the zone's name. */
function zoneLabel(zone: string, city?: string): string {
  let offset = '';
  try {
    offset =
      new Intl.DateTimeFormat('ru', { timeZone: zone, timeZoneName: 'shortOffset' })
        .formatToParts(new Date())
        .find((p) => p.type === 'timeZoneName')?.value ?? '';
  } catch {
    // A zone this browser does not know is offered by its name alone.
  }
  return `${city ? `${city} — ` : ''}${zone}${offset ? ` (${offset})` : ''}`;
}

export default function WelcomePage() {
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token'));
  const [phase, setPhase] = useState<'redeeming' | 'failed' | 'ready'>(token ? 'redeeming' : 'ready');
  const [failure, setFailure] = useState('');

  useEffect(() => {
    if (!token) return;
    // Out of the address bar at once: a reload, the history or a shared screen never carries the token.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    let live = true;
    redeemOnce(token).then(
      async (t) => {
        setToken(t.access_token);
        await mutate(CURRENT_USER_KEY, undefined, { revalidate: false });
        if (live) setPhase('ready');
      },
      (err: unknown) => {
        if (!live) return;
        setFailure(messageOf(err));
        setPhase('failed');
      },
    );
    return () => {
      live = false;
    };
  }, [token]);

  if (phase === 'redeeming')
    return (
      <AuthCard title="Входим в студию…">
        <PageLoader h={120} />
      </AuthCard>
    );
  if (phase === 'failed')
    return (
      <AuthCard title="Не удалось войти">
        <Alert color="red" variant="light" data-testid="welcome-failed">
          {failure}
        </Alert>
        <Button component={Link} href={isLoggedIn() ? '/' : '/login'} variant="outline">
          {isLoggedIn() ? 'Открыть админку' : 'Войти по email и паролю'}
        </Button>
      </AuthCard>
    );
  if (!isLoggedIn()) return <Redirect to="/login" replace />;
  return <Wizard />;
}

function Wizard() {
  const studio = useApi(studioApi.get, {});
  const { known, can } = useCan();
  if (known && !can('business.settings')) return <Redirect to="/" replace />;
  if (studio.error)
    return (
      <AuthCard title="Не удалось открыть настройку">
        <Alert color="red" variant="light">
          {messageOf(studio.error)}
        </Alert>
        <Button component={Link} href="/" variant="outline">
          Открыть админку
        </Button>
      </AuthCard>
    );
  if (!studio.data) return <PageLoader h="100vh" />;
  return <WizardSteps studio={studio.data} />;
}

const STEPS = ['Название', 'Часовой пояс', 'Адрес', 'Мастер-класс', 'Первое занятие'] as const;

function WizardSteps({ studio }: { studio: StudioProfile }) {
  const phone = useMediaQuery('(max-width: 40em)');
  const me = useCurrentUser().data;
  const [active, setActive] = useState(0);
  const [busy, setBusy] = useState<'next' | 'finish' | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [saved, setSaved] = useState({ name: studio.name, timezone: studio.timezone || DEFAULT_TIME_ZONE });

  const [name, setName] = useState(studio.name);
  const [zone, setZone] = useState(saved.timezone);
  const [address, setAddress] = useState({ title: '', map_link: '' });
  const [workshop, setWorkshop] = useState({ title: '', price: DEFAULT_PRICE as number | string, description: '' });
  const [made, setMade] = useState<{ addressId?: number; workshopId?: number }>({});
  const workshops = useApi(workshopsApi.list, { query: { limit: 100 } });
  const addresses = useApi(addressesApi.list, { query: { limit: 100 } });

  /** A field edited loses its message (the next save checks it again). */
  const clear = (field: string) =>
    setErrors((e) => (field in e ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== field)) : e));
  const go = (step: number) => {
    setErrors({});
    setActive(step);
  };
  /** Runs a step's save with its button loading; a failure's messages go to their fields. */
  async function run(which: 'next' | 'finish', save: () => Promise<void>, field: string) {
    setBusy(which);
    setErrors({});
    try {
      await save();
    } catch (err) {
      setErrors(errorsOf(err, field));
    } finally {
      setBusy(null);
    }
  }

  const saveName = () => {
    const bad = issuesOf(StudioUpdate.required({ name: true }).safeParse({ name }), 'name');
    if (bad) return setErrors(bad);
    return run(
      'next',
      async () => {
        const clean = name.trim();
        if (clean !== saved.name) await call(studioApi.update, { body: { name: clean } });
        setSaved((s) => ({ ...s, name: clean }));
        setName(clean);
        go(1);
      },
      'name',
    );
  };

  const saveZone = () =>
    run(
      'next',
      async () => {
        if (zone !== saved.timezone) await call(studioApi.update, { body: { timezone: zone } });
        setSaved((s) => ({ ...s, timezone: zone }));
        go(2);
      },
      'timezone',
    );

  const saveAddress = () => {
    const body = { title: address.title, map_link: address.map_link };
    const bad = issuesOf(AddressCreate.safeParse(body), 'title');
    if (bad) return setErrors(bad);
    return run(
      'next',
      async () => {
        const a = made.addressId
          ? await call(addressesApi.update, { params: { id: made.addressId }, body })
          : await call(addressesApi.create, { body });
        setMade((m) => ({ ...m, addressId: a.id }));
        void addresses.mutate();
        go(3);
      },
      'title',
    );
  };

  const saveWorkshop = () => {
    const body = {
      title: workshop.title,
      price: workshop.price === '' ? Number.NaN : Number(workshop.price),
      description: workshop.description.trim() || null,
    };
    const bad = issuesOf(WorkshopCreate.safeParse(body), 'title');
    if (bad) return setErrors(bad);
    return run(
      'next',
      async () => {
        const w = made.workshopId
          ? await call(workshopsApi.update, { params: { id: made.workshopId }, body })
          : await call(workshopsApi.create, { body });
        setMade((m) => ({ ...m, workshopId: w.id }));
        void workshops.mutate();
        go(4);
      },
      'title',
    );
  };

  /** The end: the setup is marked done and the schedule opens, loaded anew (its pages then show the new name and zone). */
  const finish = async () => {
    await call(studioApi.setupDone);
    window.location.assign(withBase('/schedule'));
  };

  const stepContent: ReactNode[] = [
    <Stack gap="md" key="name">
      <TextInput
        label="Название студии"
        description="Его видят клиенты в боте и на странице записи"
        withAsterisk
        data-autofocus
        value={name}
        onChange={(e) => {
          setName(e.currentTarget.value);
          clear('name');
        }}
        error={errors.name}
        maxLength={150}
      />
      <StepButtons busy={busy} onNext={saveName} />
    </Stack>,
    <Stack gap="md" key="zone">
      <Select
        label="Часовой пояс"
        description="Даты и время занятий показываются и вводятся в этом поясе"
        searchable
        allowDeselect={false}
        nothingFoundMessage="Ничего не найдено"
        data={zoneOptions(saved.timezone)}
        value={zone}
        onChange={(v) => {
          if (v) setZone(v);
          clear('timezone');
        }}
        error={errors.timezone}
        comboboxProps={{ withinPortal: true }}
      />
      <StepButtons
        busy={busy}
        onBack={() => go(0)}
        onSkip={() => {
          setZone(saved.timezone);
          go(2);
        }}
        onNext={saveZone}
      />
    </Stack>,
    <Stack gap="md" key="address">
      <TextInput
        label="Адрес"
        placeholder="Улица, дом"
        withAsterisk
        value={address.title}
        onChange={(e) => {
          setAddress({ ...address, title: e.currentTarget.value });
          clear('title');
        }}
        error={errors.title}
      />
      <TextInput
        label="Ссылка на карту"
        placeholder="https://maps.app.goo.gl/…"
        withAsterisk
        value={address.map_link}
        onChange={(e) => {
          setAddress({ ...address, map_link: e.currentTarget.value });
          clear('map_link');
        }}
        error={errors.map_link}
      />
      <Text size="xs" c="gray.7">
        Больше адресов и точку на карте можно добавить потом: Настройки → Адреса.
      </Text>
      <StepButtons busy={busy} onBack={() => go(1)} onSkip={() => go(3)} onNext={saveAddress} />
    </Stack>,
    <Stack gap="md" key="workshop">
      <TextInput
        label="Название мастер-класса"
        placeholder="Например, Хачапури по-аджарски"
        withAsterisk
        value={workshop.title}
        onChange={(e) => {
          setWorkshop({ ...workshop, title: e.currentTarget.value });
          clear('title');
        }}
        error={errors.title}
      />
      <NumberInput
        label="Цена, RSD"
        min={0}
        step={100}
        clampBehavior="none"
        allowDecimal={false}
        thousandSeparator=" "
        value={workshop.price}
        onChange={(v) => {
          setWorkshop({ ...workshop, price: v });
          clear('price');
        }}
        error={errors.price}
      />
      <Textarea
        label="Описание"
        autosize
        minRows={3}
        maxRows={8}
        value={workshop.description}
        onChange={(e) => {
          setWorkshop({ ...workshop, description: e.currentTarget.value });
          clear('description');
        }}
        error={errors.description}
      />
      <StepButtons busy={busy} onBack={() => go(2)} onSkip={() => go(4)} onNext={saveWorkshop} />
    </Stack>,
    <SessionStep
      key="session"
      zone={saved.timezone}
      workshops={workshops.data?.data ?? []}
      addresses={addresses.data?.data ?? []}
      made={made}
      busy={busy}
      errors={errors}
      onBack={() => go(3)}
      onSkip={() => run('finish', finish, 'date')}
      onCheck={setErrors}
      onEdit={clear}
      onFinish={(body) =>
        run(
          'finish',
          async () => {
            await call(scheduleApi.create, { body });
            await finish();
          },
          'date',
        )
      }
    />,
  ];

  return (
    <Container size={720} px={{ base: 'sm', sm: 'md' }} py={{ base: 'md', sm: 'xl' }} component="main">
      <Stack gap="lg">
        <Group gap="xs" wrap="nowrap">
          <IconChefHat size={32} color="var(--mantine-color-teal-7)" />
          <Title order={1} size="h2">
            Настройка студии
          </Title>
        </Group>
        {me?.email.endsWith('@telegram.local') && (
          <Alert color="blue" variant="light" data-testid="telegram-login-note">
            Вы вошли через Telegram. Чтобы входить и без него, задайте позже настоящий email (Настройки → Профиль) и
            пароль (Пользователи → ваша учётная запись).
          </Alert>
        )}
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <Stepper
            active={active}
            onStepClick={(step) => step < active && go(step)}
            allowNextStepsSelect={false}
            size="sm"
            color="teal.9"
            mb="lg"
          >
            {STEPS.map((label, i) => (
              <Stepper.Step
                key={label}
                label={phone ? undefined : label}
                // On a phone the steps show their numbers only: the name is said to screen readers.
                aria-label={phone ? `Шаг ${i + 1}: ${label}` : undefined}
                loading={busy !== null && active === i}
              />
            ))}
          </Stepper>
          <Stack gap="md">
            <Title order={2} size="h4" data-testid="wizard-step">
              {`Шаг ${active + 1} из ${STEPS.length}. ${STEPS[active]}`}
            </Title>
            {stepContent[active]}
          </Stack>
        </Paper>
        <Anchor component={Link} href="/" size="sm" ta="center" c="gray.7">
          Перейти в админку без настройки
        </Anchor>
      </Stack>
    </Container>
  );
}

function zoneOptions(current: string) {
  const known = COMMON_TIME_ZONES.some((z) => z.zone === current);
  return [
    ...(known ? [] : [{ value: current, label: zoneLabel(current) }]),
    ...COMMON_TIME_ZONES.map((z) => ({ value: z.zone, label: zoneLabel(z.zone, z.city) })),
  ];
}

function StepButtons({
  busy,
  onBack,
  onSkip,
  onNext,
  nextLabel = 'Далее',
  skipLabel = 'Пропустить',
}: {
  busy: 'next' | 'finish' | null;
  onBack?: () => void;
  onSkip?: () => void;
  onNext: () => unknown;
  nextLabel?: string;
  skipLabel?: string;
}) {
  const finishing = nextLabel === 'Готово';
  return (
    <Group justify="space-between" mt="sm" gap="xs">
      {onBack ? (
        <Button variant="default" onClick={onBack} disabled={busy !== null}>
          Назад
        </Button>
      ) : (
        <span />
      )}
      <Group gap="xs" ml="auto">
        {onSkip && (
          <Button variant="subtle" color="gray.8" onClick={onSkip} disabled={busy !== null}>
            {skipLabel}
          </Button>
        )}
        <Button
          onClick={() => void onNext()}
          loading={busy === (finishing ? 'finish' : 'next')}
          disabled={busy !== null && busy !== (finishing ? 'finish' : 'next')}
        >
          {nextLabel}
        </Button>
      </Group>
    </Group>
  );
}

type SessionBody = z.input<typeof ScheduleCreate>;

/** The first session: a workshop at an address on a day and time in the studio's zone, with its seats. */
function SessionStep({
  zone,
  workshops,
  addresses,
  made,
  busy,
  errors,
  onBack,
  onSkip,
  onCheck,
  onEdit,
  onFinish,
}: {
  zone: string;
  workshops: { id: number; title: string }[];
  addresses: { id: number; title: string }[];
  made: { addressId?: number; workshopId?: number };
  busy: 'next' | 'finish' | null;
  errors: Errors;
  onBack: () => void;
  onSkip: () => void;
  onCheck: (errors: Errors) => void;
  onEdit: (field: string) => void;
  onFinish: (body: SessionBody) => unknown;
}) {
  const initial = defaultSessionInput(new Date(), zone);
  const [day, setDay] = useState(initial.slice(0, 10));
  const [time, setTime] = useState(initial.slice(11, 16));
  const [capacity, setCapacity] = useState<number | string>(DEFAULT_CAPACITY);
  const [workshopId, setWorkshopId] = useState<string | null>(null);
  const [addressId, setAddressId] = useState<string | null>(null);
  const today = toZonedInput(new Date(), zone).slice(0, 10);
  // The ones made in this wizard, else the newest.
  const workshopValue =
    workshopId ?? (made.workshopId ? String(made.workshopId) : workshops[0] ? String(workshops[0].id) : null);
  const addressValue =
    addressId ?? (made.addressId ? String(made.addressId) : addresses[0] ? String(addresses[0].id) : null);

  if (workshops.length === 0 || addresses.length === 0)
    return (
      <Stack gap="md">
        <Text>
          Для занятия нужны адрес и мастер-класс. Вернитесь к предыдущим шагам или добавьте занятие позже в разделе
          «Расписание».
        </Text>
        <StepButtons busy={busy} onBack={onBack} onNext={onSkip} nextLabel="Готово" />
        {errors.date && (
          <Text c="red.8" size="sm" role="alert">
            {errors.date}
          </Text>
        )}
      </Stack>
    );

  const submit = () => {
    const body: SessionBody = {
      date: day && time ? fromZonedInput(`${day} ${time}:00`, zone) : '',
      workshop_id: Number(workshopValue),
      address_id: Number(addressValue),
      capacity: capacity === '' ? Number.NaN : Number(capacity),
    };
    const bad = issuesOf(ScheduleCreate.safeParse(body), 'date');
    if (bad) return onCheck(bad);
    return onFinish(body);
  };

  return (
    <Stack gap="md">
      <Select
        label="Мастер-класс"
        withAsterisk
        data={workshops.map((w) => ({ value: String(w.id), label: w.title }))}
        value={workshopValue}
        onChange={(v) => {
          setWorkshopId(v);
          onEdit('workshop_id');
        }}
        allowDeselect={false}
        error={errors.workshop_id}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        label="Адрес"
        withAsterisk
        data={addresses.map((a) => ({ value: String(a.id), label: a.title }))}
        value={addressValue}
        onChange={(v) => {
          setAddressId(v);
          onEdit('address_id');
        }}
        allowDeselect={false}
        error={errors.address_id}
        comboboxProps={{ withinPortal: true }}
      />
      <Stack gap={4}>
        <Group gap="sm" align="flex-start" wrap="nowrap">
          <DateField
            label="Дата"
            withAsterisk
            value={day}
            minDate={today}
            onChange={(d) => {
              setDay(d);
              onEdit('date');
            }}
            error={errors.date}
            style={{ flex: 1 }}
          />
          <TimePicker
            label="Время"
            withAsterisk
            hoursInputLabel="Часы"
            minutesInputLabel="Минуты"
            value={time}
            onChange={(t) => {
              setTime(t);
              onEdit('date');
            }}
            w={110}
          />
        </Group>
        <Text size="xs" c="gray.7">{`Часовой пояс: ${zone}`}</Text>
      </Stack>
      <NumberInput
        label="Количество мест"
        min={0}
        clampBehavior="none"
        allowDecimal={false}
        value={capacity}
        onChange={(v) => {
          setCapacity(v);
          onEdit('capacity');
        }}
        error={errors.capacity}
      />
      <StepButtons
        busy={busy}
        onBack={onBack}
        onSkip={onSkip}
        skipLabel="Пропустить и завершить"
        onNext={submit}
        nextLabel="Готово"
      />
    </Stack>
  );
}
