import { Cell } from '@telegram-apps/telegram-ui';
import type { RecordSchedule } from '../../../contract';
import { formatDate, formatTime, formatWeekday } from '../../../contract/format';
import { config } from '../config';
import { openLink } from '../tg';
import { IconCalendar, IconPin } from './icons';

/** When and where a booked workshop takes place: its date and title, then the address with its map link. */
export function ScheduleCells({ schedule: s }: { schedule: RecordSchedule }) {
  const tz = config().businessTimezone;
  return (
    <>
      <Cell
        before={<IconCalendar className="cell-icon" />}
        subhead={`${formatWeekday(s.date, tz)}, ${formatDate(s.date, tz)} · ${formatTime(s.date, tz)}`}
        multiline
      >
        <span className="session__title">{s.workshop.title}</span>
      </Cell>
      <Cell
        before={<IconPin className="cell-icon" />}
        subhead="Адрес"
        description={s.address.description || undefined}
        multiline
        after={
          s.address.map_link ? (
            <a
              className="map-link"
              href={s.address.map_link}
              target="_blank"
              rel="noopener noreferrer"
              onClick={(e) => {
                // Inside Telegram the link opens in Telegram's browser.
                if (openLink(s.address.map_link)) e.preventDefault();
              }}
            >
              На карте
            </a>
          ) : undefined
        }
      >
        {s.address.title}
      </Cell>
    </>
  );
}
