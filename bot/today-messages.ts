import { ATTENDANCE_LABELS, type AttendanceValue } from '../contract';
import { formatDateTime } from '../contract/format';
import { escapeHtml as e } from './messages';

/** The staff bot's check-in: texts of /today and its buttons. */
export const TODAY = {
  notStaff:
    'Команда /today — для сотрудников студии. Подключите Telegram в админке: Настройки → Профиль → «Подключить Telegram».',
  none: 'Сегодня занятий нет.',
  marked: (name: string, value: AttendanceValue | null) =>
    value ? `${name}: ${ATTENDANCE_LABELS[value].toLowerCase()}` : `${name}: отметка снята`,
  gone: 'Эта запись больше не в списке.',
  attendedButton: (n: number, name: string) => `✅ ${n}. ${name}`,
  noShowButton: '❌ Не пришёл',
};

export interface TodayParticipant {
  id: number;
  name: string;
  last_name: string | null;
  people_count: number;
  has_allergy: boolean;
  allergy_type: string | null;
  attendance: AttendanceValue | null;
}

export interface TodaySession {
  title: string;
  date: string;
  capacity: number;
  participants: TodayParticipant[];
}

const MARK = { ATTENDED: '✅', NO_SHOW: '❌' } as const;

/** One session: its participants with party size, allergy and their mark. */
export function todayText(s: TodaySession, timezone: string): string {
  const people = s.participants.reduce((n, p) => n + p.people_count, 0);
  const head = `<b>${e(s.title)}</b>, ${e(formatDateTime(s.date, timezone))}\nУчастники: ${people} из ${s.capacity}`;
  if (s.participants.length === 0) return `${head}\n\nЗаписей нет.`;
  const lines = s.participants.map((p, i) => {
    const name = [p.name, p.last_name].filter(Boolean).join(' ');
    const allergy = p.has_allergy ? ` · ⚠️ аллергия: ${e(p.allergy_type || 'да')}` : '';
    const mark = p.attendance ? ` — ${MARK[p.attendance]} ${ATTENDANCE_LABELS[p.attendance].toLowerCase()}` : '';
    return `${i + 1}. ${e(name)}, ${p.people_count} чел.${allergy}${mark}`;
  });
  return `${head}\n\n${lines.join('\n')}`;
}
