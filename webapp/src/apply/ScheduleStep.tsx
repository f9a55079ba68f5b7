import { Button, Cell, Placeholder, Section, Skeleton } from '@telegram-apps/telegram-ui';
import type { ScheduleOpen } from '../../../contract';
import { formatDate, formatPrice, formatTime, formatWeekday, plural } from '../../../contract/format';
import { config } from '../config';
import { IconChef, IconChevron } from '../ui/icons';

export const EMPTY_TEXT = 'На данный момент запись недоступна...';
export const LOAD_ERROR_TEXT = 'Произошла ошибка при загрузке данных';

export function seatsText(s: Pick<ScheduleOpen, 'places_available'>): string {
  const n = s.places_available;
  return n > 0 ? `Осталось ${n} ${plural(n, ['место', 'места', 'мест'])}` : 'Мест нет — запись в очередь';
}

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
  if (error && !data) {
    return (
      <Placeholder
        className="state"
        header={LOAD_ERROR_TEXT}
        description="Проверьте соединение и попробуйте ещё раз"
        action={
          <Button size="m" mode="bezeled" onClick={onRetry}>
            Повторить
          </Button>
        }
      />
    );
  }
  if (isLoading || !data) {
    return (
      <Section header="Выберите мастер-класс" aria-busy="true" aria-label="Загрузка расписания">
        {[0, 1, 2].map((i) => (
          <Cell
            key={i}
            multiline
            subhead={<Skeleton visible>00/00/0000 · 00:00</Skeleton>}
            description={<Skeleton visible>Осталось 0 мест</Skeleton>}
          >
            <Skeleton visible>Мастер-класс загружается</Skeleton>
          </Cell>
        ))}
      </Section>
    );
  }
  if (data.length === 0) {
    return (
      <Placeholder className="state" header={EMPTY_TEXT} description="Загляните позже: новые даты появляются регулярно">
        <IconChef />
      </Placeholder>
    );
  }
  const tz = config().businessTimezone;
  return (
    <Section header="Выберите мастер-класс" footer="Цены указаны за одного человека">
      {data.map((s) => {
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
                <span className="date-tile__day">{formatDate(s.date, tz).split('/')[0]}</span>
                <span className="date-tile__time">{formatTime(s.date, tz)}</span>
              </div>
            }
            subhead={
              <span>
                <span className="weekday">{formatWeekday(s.date, tz)}, </span>
                {formatDate(s.date, tz)} · {formatTime(s.date, tz)}
              </span>
            }
            subtitle={s.address.title}
            description={
              <span className="session__meta">
                <span className="chip chip--price">{formatPrice(s.workshop.price)}</span>
                <span className={`chip ${full ? 'chip--queue' : 'chip--seats'}`}>{seatsText(s)}</span>
              </span>
            }
            after={<IconChevron className="chevron" />}
          >
            <span className="session__title">{s.workshop.title}</span>
          </Cell>
        );
      })}
    </Section>
  );
}
