import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { Link } from 'wouter';
import type { RecordView } from '../../../contract';
import { formatDate, formatTime } from '../../../contract/format';
import { config } from '../config';
import { closeApp } from '../tg';
import { IconCheck, IconClock } from '../ui/icons';
import { CalendarButton } from '../record/JourneyActions';

export default function SuccessStep({ view }: { view: RecordView }) {
  const { record, queue_position } = view;
  const queued = record.state === 'QUEUED';
  const tz = config().businessTimezone;
  const when = `${formatDate(record.schedule.date, tz)} в ${formatTime(record.schedule.date, tz)}`;
  return (
    <Placeholder
      className="state success"
      header={queued ? 'Вы в очереди' : 'Вы записаны!'}
      description={
        queued
          ? `Свободных мест сейчас нет. Мы добавим вас на «${record.schedule.workshop.title}» (${when}), как только место освободится, и сообщим об этом в Telegram.${queue_position ? ` Ваше место в очереди: ${queue_position}.` : ''}`
          : `Ждём вас на «${record.schedule.workshop.title}» ${when}. Подтверждение придёт в Telegram.`
      }
      action={
        <div className="success__actions">
          <Button size="l" stretched onClick={() => closeApp()}>
            Закрыть
          </Button>
          <CalendarButton view={view} />
          <Link href={`/record/${record.id}`} className="success__link">
            Открыть мою запись
          </Link>
        </div>
      }
    >
      <div className={`success__icon${queued ? ' success__icon--queued' : ''}`}>
        {queued ? <IconClock size={56} /> : <IconCheck size={72} />}
      </div>
    </Placeholder>
  );
}
