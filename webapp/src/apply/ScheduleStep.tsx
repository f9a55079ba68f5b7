import { useEffect } from 'react';
import { Button, Cell, Placeholder, Section, Skeleton } from '@telegram-apps/telegram-ui';
import type { ScheduleOpen } from '../../../contract';
import { config } from '../config';
import { useT, workshopTitle, type WebTexts } from '../i18n';
import { IconChef, IconChevron } from '../ui/schedule-icons';

const seatsText = (T: WebTexts, n: number) => (n > 0 ? T.schedule.seatsLeft(n) : T.schedule.full);

export function ScheduleStep({
  data,
  error,
  isLoading,
  onRetry,
  onSelect,
}: {
  data: ScheduleOpen[] | undefined;
  error: unknown;
  isLoading: boolean;
  onRetry: () => void;
  onSelect: (s: ScheduleOpen) => void;
}) {
  const T = useT();
  const waiting = isLoading && !data;
  // The list's own formatters (in the studio's time zone, whose data ICU loads with the first of them;
  // warm-intl.ts has already paid for the locale's) are made in a task of their own while the schedule
  // is on its way, so the list's render is not one long task with them; they are cached and reused.
  useEffect(() => {
    if (!waiting) return;
    const warm = () => {
      const now = Date.now();
      const tz = config().businessTimezone;
      T.fmt.price(0);
      T.fmt.monthYear(now, tz);
      T.fmt.month(now, tz);
      T.fmt.sessionDay(now, tz);
      T.fmt.time(now, tz);
    };
    let id: ReturnType<typeof setTimeout> | undefined;
    // After the placeholder's frame: a timer set in an animation frame fires once the frame is drawn.
    const frame = requestAnimationFrame(() => (id = setTimeout(warm, 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(id);
    };
  }, [waiting, T]);
  if (error && !data) {
    return (
      <Placeholder
        className="state"
        header={T.schedule.loadError}
        description={T.schedule.loadErrorHint}
        action={
          <Button size="m" mode="bezeled" onClick={onRetry}>
            {T.common.retry}
          </Button>
        }
      />
    );
  }
  if (isLoading || !data) {
    return (
      // Its own key: the list that replaces it is new nodes, not these moved and resized (a layout shift).
      <Section key="loading" header={T.schedule.choose} aria-busy="true" aria-label={T.schedule.loadingLabel}>
        {[0, 1, 2].map((i) => (
          <Cell
            key={i}
            multiline
            subhead={<Skeleton visible>00/00/0000 · 00:00</Skeleton>}
            description={<Skeleton visible>{T.schedule.seatsLeft(0)}</Skeleton>}
          >
            <Skeleton visible>{T.schedule.loadingTitle}</Skeleton>
          </Cell>
        ))}
      </Section>
    );
  }
  if (data.length === 0) {
    return (
      <Placeholder className="state" header={T.schedule.empty} description={T.schedule.emptyHint}>
        <IconChef />
      </Placeholder>
    );
  }
  const tz = config().businessTimezone;
  // Sessions come in date order: a run of one month is its group, under the month's name.
  const months: { label: string; sessions: ScheduleOpen[] }[] = [];
  for (const s of data) {
    const label = T.fmt.monthYear(s.date, tz);
    if (months.at(-1)?.label !== label) months.push({ label, sessions: [] });
    months.at(-1)!.sessions.push(s);
  }
  return (
    <Section key="sessions" header={T.schedule.choose} footer={T.schedule.perPerson}>
      {months.map(({ label, sessions }) => (
        <div key={label} role="group" aria-label={label} className="month-group">
          <div className="month-label" aria-hidden="true">
            {label}
          </div>
          {sessions.map((s) => {
            const full = s.places_available <= 0;
            return (
              <Cell
                key={s.id}
                data-testid={`session-${s.id}`}
                className={`session${full ? ' session--full' : ''}`}
                multiline
                onClick={() => onSelect(s)}
                before={
                  <div className="date-tile" aria-hidden="true">
                    <span className="date-tile__month">{T.fmt.month(s.date, tz)}</span>
                    <span className="date-tile__day">{T.fmt.day(s.date, tz)}</span>
                    <span className="date-tile__time">{T.fmt.time(s.date, tz)}</span>
                  </div>
                }
                subhead={
                  <span className="session-day">
                    {T.fmt.sessionDay(s.date, tz)} · {T.fmt.time(s.date, tz)}
                  </span>
                }
                subtitle={s.address.title}
                description={
                  <span className="session__meta">
                    <span className="chip chip--price">{T.fmt.price(s.workshop.price)}</span>
                    <span className={`chip ${full ? 'chip--queue' : 'chip--seats'}`}>
                      {seatsText(T, s.places_available)}
                    </span>
                    {s.people_needed ? (
                      <span className="chip chip--needed">{T.schedule.peopleNeeded(s.people_needed)}</span>
                    ) : null}
                  </span>
                }
                after={<IconChevron className="chevron" />}
              >
                <span className="session__title">{workshopTitle(s.workshop)}</span>
              </Cell>
            );
          })}
        </div>
      ))}
    </Section>
  );
}
