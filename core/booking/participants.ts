import { ATTENDANCE_LABELS, PARTICIPANT_STATE_LABELS, RECORD_SOURCES } from '../../contract';
import { formatDateTime } from '../../contract/format';
import { bool } from '../../db/database';
import type { ExportRow } from '../../db/repositories/exports';

/** The chef's list: one row per booking, in Russian, as the CSV exports show it. */
export const PARTICIPANT_COLUMNS = [
  'Имя',
  'Фамилия',
  'Telegram',
  'Количество',
  'Статус',
  'Аллергия',
  'Комментарий',
  'Впервые',
  'Источник',
  'Подтверждение',
  'Посещение',
  'Заметка',
] as const;

export function participantCells(r: ExportRow, timeZone: string): (string | number | null)[] {
  return [
    r.name,
    r.last_name,
    // A link, not '@login': a leading @ starts a formula in Excel.
    r.telegram_login ? `https://t.me/${r.telegram_login}` : r.telegram_id !== null ? String(r.telegram_id) : null,
    r.people_count,
    PARTICIPANT_STATE_LABELS[r.state],
    bool(r.has_allergy) ? r.allergy_type || 'Да' : 'Нет',
    r.comment,
    bool(r.is_first_time) ? 'Да' : 'Нет',
    r.source ? (RECORD_SOURCES[r.source as keyof typeof RECORD_SOURCES] ?? r.source) : null,
    r.confirmed_at ? `Да, ${formatDateTime(r.confirmed_at, timeZone)}` : null,
    r.attendance ? ATTENDANCE_LABELS[r.attendance] : null,
    r.note,
  ];
}

/** The bookings export: the session's date and workshop, then the participant columns. */
export const BOOKING_COLUMNS = ['Дата', 'Мастер-класс', ...PARTICIPANT_COLUMNS] as const;

export const bookingCells = (r: ExportRow, timeZone: string) => [
  formatDateTime(r.date, timeZone),
  r.workshop_title,
  ...participantCells(r, timeZone),
];
