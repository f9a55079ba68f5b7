import { Button, Placeholder } from '@telegram-apps/telegram-ui';
import { Link } from 'wouter';
import type { RecordView } from '../../../contract';
import { config } from '../config';
import { useT, workshopTitle } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { closeApp } from '../tg-native';
import { IconCheck, IconClock } from '../ui/icons';
import { CalendarButton } from '../record/JourneyActions';
import '../later.css';

export default function SuccessStep({ view }: { view: RecordView }) {
  const T = useT();
  const { record, queue_position } = view;
  const queued = record.state === 'QUEUED';
  const tz = config().businessTimezone;
  const when = T.success.when(T.fmt.date(record.schedule.date, tz), T.fmt.time(record.schedule.date, tz));
  const title = workshopTitle(record.schedule.workshop);
  // A confirmation names the price (the bot's says it too).
  const price = view.money && view.money.price > 0 ? T.success.price(T.fmt.price(view.money.price)) : '';
  return (
    <Placeholder
      className="state success"
      header={queued ? T.success.queued : T.success.booked}
      description={
        queued
          ? T.success.queuedText(title, when) + (queue_position ? T.success.queuePlace(queue_position) : '')
          : T.success.bookedText(title, when) + price
      }
      action={
        <div className="success__actions">
          <Button size="l" stretched onClick={() => closeApp()}>
            {T.common.close}
          </Button>
          <CalendarButton view={view} />
          <Link href={`/record/${record.id}`} className="success__link">
            {T.success.openRecord}
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
