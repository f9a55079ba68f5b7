import { Cell } from '@telegram-apps/telegram-ui';
import type { RecordSchedule } from '../../../contract';
import { config } from '../config';
import { useT, workshopTitle } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { openLink } from '../tg-native';
import { IconCalendar, IconPin } from './icons';
import '../later.css';

/** When and where a booked workshop takes place: its date and title, then the address with its map link. */
export function ScheduleCells({ schedule: s }: { schedule: RecordSchedule }) {
  const T = useT();
  const tz = config().businessTimezone;
  return (
    <>
      <Cell
        before={<IconCalendar className="cell-icon" />}
        subhead={`${T.fmt.sessionDay(s.date, tz)} · ${T.fmt.time(s.date, tz)}`}
        multiline
      >
        <span className="session__title">{workshopTitle(s.workshop)}</span>
      </Cell>
      <Cell
        before={<IconPin className="cell-icon" />}
        subhead={T.common.address}
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
              {T.common.onMap}
            </a>
          ) : undefined
        }
      >
        {s.address.title}
      </Cell>
    </>
  );
}
