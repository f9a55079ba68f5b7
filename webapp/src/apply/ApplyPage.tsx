import { Suspense, lazy, useCallback, useEffect, useState } from 'react';
import useSWR, { preload } from 'swr';
import { Steps } from '@telegram-apps/telegram-ui';
import type { RecordView, ScheduleOpen } from '../../../contract';
import type { Reply } from '../../../contract/endpoints/endpoint';
import type { recordsApi } from '../../../contract/endpoints/records';
import type { scheduleApi } from '../../../contract/endpoints/schedule';
import { request } from '../api';
import { haptic, hasNativeBackButton, inTelegram, setBackButton } from '../tg';
import { useT } from '../i18n';
import { launchIntent, type LaunchIntent } from './launch-intent';
import { ScheduleStep } from './ScheduleStep';
import { Notice } from '../ui/Notice';
import { CenteredSpinner } from './CenteredSpinner';

const loadForm = () => import('./ContactStep');
const ContactStep = lazy(loadForm);
const SuccessStep = lazy(() => import('./SuccessStep'));
const GiftPage = lazy(() => import('./GiftPage'));
const NewDatesOffer = lazy(() => import('./NewDatesOffer'));
const BuyCertificate = lazy(() => import('./BuyCertificate'));

export const SCHEDULE_KEY = 'schedule/public';

// The first screen's two requests, typed by their endpoints (scheduleApi.public, recordsApi.get) but sent by
// path: importing the descriptions would bring every schedule and booking endpoint into the first load.
const publicSchedule = () => request('GET', '/schedule/public') as Promise<Reply<typeof scheduleApi.public>>;
const ownRecord = (id: number) => request('GET', `/records/${id}`) as Promise<Reply<typeof recordsApi.get>>;

/**
 * Asks for the schedule before the first render (main.tsx) when the page will show it: the request
 * then runs while the first screen renders, and useSWR below takes its answer.
 */
export function preloadSchedule(): void {
  const intent = launchIntent();
  if (!intent.buy && !intent.gift) void preload(SCHEDULE_KEY, publicSchedule).catch(() => undefined);
}

export default function ApplyPage() {
  const [intent] = useState(launchIntent);
  const [buying, setBuying] = useState(intent.buy);
  if (buying)
    return (
      <Suspense fallback={<CenteredSpinner />}>
        <BuyCertificate onBack={() => setBuying(false)} />
      </Suspense>
    );
  if (intent.gift)
    return (
      <Suspense fallback={<CenteredSpinner />}>
        <GiftPage token={intent.gift} />
      </Suspense>
    );
  return <Wizard intent={intent} onBuy={() => setBuying(true)} />;
}

function Wizard({ intent, onBuy }: { intent: LaunchIntent; onBuy: () => void }) {
  const T = useT();
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [session, setSession] = useState<ScheduleOpen | null>(null);
  const [result, setResult] = useState<RecordView | null>(null);
  const { data, error, isLoading, mutate } = useSWR(SCHEDULE_KEY, publicSchedule, {
    revalidateOnFocus: false,
  });
  // "Записаться снова": the last booking (the customer's own) gives the workshop, party size and allergy.
  const { data: again } = useSWR(intent.again ? ['again', intent.again] : null, () => ownRecord(intent.again!), {
    shouldRetryOnError: false,
    revalidateOnFocus: false,
  });
  const [showAll, setShowAll] = useState(false);
  const workshopFilter = showAll ? null : (intent.workshop ?? again?.record.schedule.workshop.id ?? null);
  const sessions = workshopFilter === null ? data?.data : data?.data.filter((s) => s.workshop.id === workshopFilter);
  const filtered = workshopFilter !== null && sessions !== undefined && sessions.length > 0;

  // Step 2 is one tap away: fetch its code once the sessions are shown and the browser is idle (not
  // competing with the schedule), in steps, each run in an idle period of its own (zod, the schemas,
  // the form): at once they were one task of ~60 ms here, ~240 ms on a phone 4× slower.
  const listed = data !== undefined;
  useEffect(() => {
    if (!listed) return;
    const w = window as Window & { requestIdleCallback?: (cb: () => void) => number };
    const idle = () =>
      new Promise<void>((done) =>
        w.requestIdleCallback ? w.requestIdleCallback(() => done()) : setTimeout(done, 1500),
      );
    let cancelled = false;
    void (async () => {
      // After the frame that shows the sessions (a timer set in an animation frame fires once it is drawn).
      await new Promise((drawn) => requestAnimationFrame(() => setTimeout(drawn, 0)));
      for (const step of [
        () => import('../../../contract/zod'),
        () => import('../../../contract/records'),
        () => import('../../../contract/forms'),
        () => import('../../../contract/certificates'),
        loadForm,
      ]) {
        await idle();
        if (cancelled) return;
        await step();
      }
    })().catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [listed]);

  const back = useCallback(() => {
    haptic('light');
    setStep(1);
  }, []);

  useEffect(() => (step === 2 ? setBackButton(back) : setBackButton(null)), [step, back]);

  useEffect(() => {
    window.scrollTo?.(0, 0);
  }, [step]);

  return (
    <main className="page" aria-label={T.wizard.label}>
      <header className="wizard-header">
        <Steps count={3} progress={step} className="wizard-steps" />
        <div className="wizard-step-label" aria-live="polite">
          {T.wizard.step(step, 3)}
        </div>
      </header>
      {step === 1 && intent.cert && (
        <div className="section-notice">
          <Notice tone="info" title={T.certificate.landing} />
        </div>
      )}
      {step === 1 && (
        <ScheduleStep
          data={filtered ? sessions : data?.data}
          error={error}
          isLoading={isLoading}
          onRetry={() => void mutate()}
          onSelect={(s) => {
            haptic('selection');
            setSession(s);
            setStep(2);
          }}
        />
      )}
      {step === 1 && filtered && (
        <div className="filter-bar">
          <button type="button" className="link-button" onClick={() => setShowAll(true)}>
            {T.wizard.showAll}
          </button>
        </div>
      )}
      {step === 1 && data && inTelegram() && (
        <Suspense fallback={null}>
          <NewDatesOffer />
        </Suspense>
      )}
      {step === 1 && data && inTelegram() && (
        <div className="filter-bar">
          <button type="button" className="link-button" onClick={onBuy}>
            {T.certificate.buy}
          </button>
        </div>
      )}
      {step === 2 && session && (
        <Suspense fallback={<CenteredSpinner />}>
          <ContactStep
            session={session}
            showBack={!hasNativeBackButton()}
            onBack={back}
            onDone={(view) => {
              setResult(view);
              setStep(3);
              void mutate();
            }}
            onStale={() => void mutate()}
            certificate={intent.cert}
            prefill={
              again && again.record.schedule.workshop.id === session.workshop.id
                ? {
                    people_count: again.record.people_count,
                    has_allergy: again.record.has_allergy,
                    allergy_type: again.record.allergy_type,
                  }
                : undefined
            }
          />
        </Suspense>
      )}
      {step === 3 && result && (
        <Suspense fallback={<CenteredSpinner />}>
          <SuccessStep view={result} />
        </Suspense>
      )}
    </main>
  );
}
