import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { useLocation } from 'wouter';
import { Button, Cell, Section, Spinner, Textarea, Title, Caption } from '@telegram-apps/telegram-ui';
import type { RecordView } from '../../../contract';
// From its own module: contract/index would build every schema of the API when this page loads.
import { PEOPLE_MAX, PEOPLE_MIN } from '../../../contract/common';
import { recordsApi } from '../../../contract/endpoints/records';
import { call, errorText } from '../api';
import { config } from '../config';
import { fullName } from '../../../contract/format';
import { useT } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { haptic, setBackButton } from '../tg';
import { closeApp, hasSecondaryButton } from '../tg-native';
import { useMainButton } from '../ui/useMainButton';
import { MyDataSection } from './MyDataSection';
import { PaymentSection } from './PaymentSection';
import { ReceiptsSection } from './ReceiptsSection';
import { CalendarButton, ConfirmedNote, DeadlineNotice, GiftSeat, LeaveQueue } from './JourneyActions';
import { Notice } from '../ui/Notice';
import { Stepper } from '../ui/Stepper';
import { toast } from '../ui/toast';
import { IconAllergy, IconComment, IconPeople, IconUser, IconWallet } from '../ui/icons';
import { ScheduleCells } from '../ui/ScheduleCells';
import '../later.css';

type Panel = 'none' | 'people' | 'cancel';

export default function RecordPage({ id }: { id: string }) {
  const T = useT();
  const TEXTS = T.record;
  const [, navigate] = useLocation();
  const { data, error, mutate } = useSWR(['record', id], () => call(recordsApi.get, { params: { id: Number(id) } }), {
    shouldRetryOnError: false,
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    revalidateOnMount: true,
    dedupingInterval: 0,
  });
  const [panel, setPanel] = useState<Panel>('none');
  const [count, setCount] = useState(1);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<null | 'people' | 'cancel' | 'restore'>(null);

  // Spec: a record that cannot be loaded sends the customer to the booking wizard, no retry.
  useEffect(() => {
    if (error) navigate('/apply', { replace: true });
  }, [error, navigate]);

  useEffect(() => (panel !== 'none' ? setBackButton(() => setPanel('none')) : setBackButton(null)), [panel]);
  // A queued booking on a client with the SecondaryButton: leaving the queue is that button, beside «Закрыть».
  const queueAside = hasSecondaryButton() && Boolean(data?.allowed.leave_queue.ok);
  useMainButton(queueAside ? { text: T.common.close, active: true, progress: false } : null, closeApp);

  if (!data) {
    return (
      <div className="centered" role="progressbar" aria-label={TEXTS.loading}>
        <Spinner size="l" />
      </div>
    );
  }

  const { record, places_available, queue_position, allowed } = data;
  const s = record.schedule;
  // What the customer may do comes from the server (`allowed`); the page only shows it.
  const refused = (reason: string) => Object.values(allowed).some((p) => p.reason === reason);
  const past = refused('past');
  const cancelled = record.is_cancelled;
  const queued = record.state === 'QUEUED';
  const attended = refused('attended');
  const increase = count - record.people_count;
  const countWarning = record.state === 'ACTIVE' && increase > 0 && increase > places_available;

  const open = (p: Panel) => {
    haptic('selection');
    setPanel((cur) => (cur === p ? 'none' : p));
    if (p === 'people') setCount(record.people_count);
    if (p === 'cancel') setReason('');
  };

  async function run(
    kind: 'people' | 'cancel' | 'restore',
    call: () => Promise<RecordView>,
    done: (v: RecordView) => string,
  ) {
    setBusy(kind);
    try {
      const view = await call();
      await mutate(view, { revalidate: false });
      setPanel('none');
      haptic('success');
      toast({ kind: 'success', title: done(view) });
    } catch (err) {
      haptic('error');
      const title =
        kind === 'people' ? TEXTS.failedPeople : kind === 'cancel' ? TEXTS.failedCancel : TEXTS.failedRestore;
      toast({ kind: 'error', title, description: errorText(err) });
    } finally {
      setBusy(null);
    }
  }

  const stateAfter = (v: RecordView) => (v.record.state === 'QUEUED' ? TEXTS.nowQueued : '');

  return (
    <main className="page record" aria-label={TEXTS.heading}>
      <header className="record-header">
        <Title level="2" weight="1" Component="h1" className="record-header__title">
          {TEXTS.heading}
        </Title>
        <Caption level="1" className="record-header__business">
          {config().businessName}
        </Caption>
        <span className={`state-pill state-pill--${past ? 'past' : record.state.toLowerCase()}`}>
          {past ? TEXTS.past : TEXTS.state[record.state]}
        </span>
      </header>

      <div className="notices">
        {past && (
          <Notice tone="muted" title={TEXTS.inactive}>
            {TEXTS.pastText}
          </Notice>
        )}
        {!past && cancelled && (
          <Notice tone="danger" title={TEXTS.cancelled}>
            {record.cancel_reason ? TEXTS.reason(record.cancel_reason) : undefined}
          </Notice>
        )}
        {refused('deadline') && <DeadlineNotice view={data} />}
        {attended && (
          <Notice tone="info" title={TEXTS.attended}>
            {allowed.cancel.detail}
          </Notice>
        )}
        {!past && <ConfirmedNote view={data} />}
        {!past && queued && (
          <Notice tone="warning" title={TEXTS.queued}>
            {TEXTS.queuedText}
            {queue_position ? (
              <>
                {' '}
                <strong data-testid="queue-position">{TEXTS.queuePlace(queue_position)}</strong>
              </>
            ) : null}
          </Notice>
        )}
      </div>

      <Section header={T.common.workshop}>
        <ScheduleCells schedule={s} />
        <Cell before={<IconWallet className="cell-icon" />} subhead={TEXTS.price}>
          {TEXTS.perPerson(T.fmt.price(s.workshop.price))}
        </Cell>
      </Section>

      <Section header={TEXTS.participant}>
        <Cell before={<IconUser className="cell-icon" />} subhead={TEXTS.fullName} multiline>
          {fullName(record)}
        </Cell>
        <Cell before={<IconPeople className="cell-icon" />} subhead={T.common.peopleCount}>
          <span data-testid="people-count">{record.people_count}</span>
        </Cell>
        <Cell before={<IconAllergy className="cell-icon" />} subhead={TEXTS.allergy} multiline>
          {record.has_allergy ? TEXTS.allergyYes(record.allergy_type) : T.common.no}
        </Cell>
        {record.comment && (
          <Cell before={<IconComment className="cell-icon" />} subhead={T.common.comment} multiline>
            {record.comment}
          </Cell>
        )}
      </Section>

      <PaymentSection view={data} onPaid={() => void mutate()} />

      <ReceiptsSection view={data} />

      <div className="actions">
        {allowed.change_people.ok && (
          <Button
            size="l"
            stretched
            mode={panel === 'people' ? 'filled' : 'bezeled'}
            aria-expanded={panel === 'people'}
            onClick={() => open('people')}
          >
            {TEXTS.changeCount}
          </Button>
        )}
        {allowed.change_people.ok && panel === 'people' && (
          <div className="panel" role="region" aria-label={TEXTS.changeCount}>
            <div className="panel__row">
              <span>{T.common.peopleCount}</span>
              <Stepper
                label={TEXTS.newCount}
                value={count}
                min={PEOPLE_MIN}
                max={PEOPLE_MAX}
                onChange={(v) => (haptic('selection'), setCount(v))}
              />
            </div>
            {countWarning && (
              <Notice tone="warning" title={TEXTS.notEnoughTitle}>
                {TEXTS.countWarning}
              </Notice>
            )}
            <div className="panel__buttons">
              <Button size="m" mode="gray" onClick={() => setPanel('none')}>
                {T.common.cancel}
              </Button>
              <Button
                size="m"
                loading={busy === 'people'}
                disabled={count === record.people_count || busy !== null}
                onClick={() =>
                  void run(
                    'people',
                    () => call(recordsApi.updatePeople, { params: { id: record.id }, body: { people_count: count } }),
                    (v) => TEXTS.countChanged(v.record.people_count) + stateAfter(v),
                  )
                }
              >
                {TEXTS.save}
              </Button>
            </div>
          </div>
        )}
        {allowed.cancel.ok && (
          <Button
            size="l"
            stretched
            mode={panel === 'cancel' ? 'filled' : 'plain'}
            className="btn-destructive"
            aria-expanded={panel === 'cancel'}
            onClick={() => open('cancel')}
          >
            {TEXTS.cancel}
          </Button>
        )}
        {allowed.cancel.ok && panel === 'cancel' && (
          <div className="panel" role="region" aria-label={TEXTS.cancel}>
            {/* Our own label: telegram-ui draws a Textarea's header only on Android. */}
            <label className="field-label" htmlFor="cancel-reason">
              {TEXTS.cancelReason}
            </label>
            <Textarea
              id="cancel-reason"
              placeholder={TEXTS.cancelReasonPlaceholder}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              rows={3}
            />
            <div className="panel__buttons">
              <Button size="m" mode="gray" onClick={() => setPanel('none')}>
                {T.common.back}
              </Button>
              <Button
                size="m"
                className="btn-danger"
                loading={busy === 'cancel'}
                disabled={!reason.trim() || busy !== null}
                onClick={() =>
                  void run(
                    'cancel',
                    () =>
                      call(recordsApi.cancel, { params: { id: record.id }, body: { cancel_reason: reason.trim() } }),
                    () => TEXTS.cancelledToast,
                  )
                }
              >
                {TEXTS.confirmCancel}
              </Button>
            </div>
          </div>
        )}
        {allowed.restore.ok && (
          <Button
            size="l"
            stretched
            loading={busy === 'restore'}
            disabled={busy !== null}
            onClick={() =>
              void run(
                'restore',
                () => call(recordsApi.restore, { params: { id: record.id } }),
                (v) => TEXTS.restored + stateAfter(v),
              )
            }
          >
            {TEXTS.restore}
          </Button>
        )}
        {!past && !cancelled && <CalendarButton view={data} />}
        {allowed.gift.ok && <GiftSeat view={data} />}
        {allowed.leave_queue.ok && <LeaveQueue view={data} onDone={(v) => void mutate(v, { revalidate: false })} />}
        <MyDataSection />
        {/* Beside the SecondaryButton the MainButton closes; this one stays for screen readers. */}
        <div className={queueAside ? 'visually-hidden' : undefined}>
          <Button size="l" stretched mode="gray" onClick={() => closeApp()}>
            {T.common.close}
          </Button>
        </div>
      </div>
    </main>
  );
}
