import { ATTENDANCE_LABELS, PARTICIPANT_STATE_LABELS, RECORD_SOURCES } from '../../contract';
import { formatDateTime } from '../../contract/format';
import { bool } from '../../db/database';
import { priceOf } from '../ledger/price';
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

/** After the party size, the bookings export says what the booking costs and what a promo code took off it. */
const PARTY = PARTICIPANT_COLUMNS.indexOf('Количество') + 1;

/** The bookings export: the session's date and workshop, then the participant columns with the price. */
export const BOOKING_COLUMNS = [
  'Дата',
  'Мастер-класс',
  ...PARTICIPANT_COLUMNS.slice(0, PARTY),
  'Цена',
  'Скидка',
  'Промокод',
  ...PARTICIPANT_COLUMNS.slice(PARTY),
] as const;

export function bookingCells(r: ExportRow, timeZone: string) {
  const cells = participantCells(r, timeZone);
  return [
    formatDateTime(r.date, timeZone),
    r.workshop_title,
    ...cells.slice(0, PARTY),
    priceOf(r),
    r.discount,
    r.promo_code,
    ...cells.slice(PARTY),
  ];
}
