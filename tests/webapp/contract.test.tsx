import { describe, expect, it } from 'vitest';
import { IsoDateTime, Pagination, RecordCreate, ScheduleCreate, UserUpdateMe } from '../../contract';
import {
  daysBetween,
  formatDateTime,
  formatPrice,
  formatShortDateTime,
  formatWeekday,
  plural,
} from '../../contract/format';

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe("zod's own messages, in Russian for forms and 422 answers alike", () => {
  it('a missing field, a number that is not one, a length, a format, an enum', () => {
    expect(messages(RecordCreate.safeParse({ name: 'Анна', is_first_time: true }))).toEqual([
      'schedule_id: Обязательное поле',
    ]);
    expect(
      messages(
        ScheduleCreate.safeParse({ date: '2030-01-01T12:00:00Z', capacity: Number.NaN, workshop_id: 1, address_id: 1 }),
      ),
    ).toEqual(['capacity: Введите число']);
    expect(messages(UserUpdateMe.safeParse({ full_name: 'x'.repeat(31) }))).toEqual([
      'full_name: Максимум 30 символов',
    ]);
    expect(messages(Pagination.safeParse({ limit: '0' }))).toEqual(['limit: Минимум 1']);
    expect(messages(IsoDateTime.safeParse('завтра'))).toEqual([': Некорректные дата и время']);
    expect(
      messages(RecordCreate.safeParse({ schedule_id: 1, name: 'Анна', is_first_time: true, source: 'tv' }))[0],
    ).toMatch(/^source: Допустимые значения: instagram, /);
  });

  it("a rule's own message still wins", () => {
    expect(messages(ScheduleCreate.safeParse({ date: '', workshop_id: null, address_id: 1 }))).toEqual([
      'date: Укажите дату и время',
      'workshop_id: Выберите мастер-класс',
    ]);
  });
});

describe('the shared formatters the bot uses too', () => {
  it("'d MMMM y H:mm', the short form, weekdays and calendar days in the business zone", () => {
    const tz = 'Europe/Belgrade';
    expect(formatDateTime('2026-12-05T11:00:00.000Z', tz)).toBe('5 декабря 2026 12:00');
    expect(formatShortDateTime('2026-07-01T06:05:00.000Z', tz)).toBe('1 июля 8:05');
    expect(formatWeekday('2026-11-20T23:30:00.000Z', tz)).toBe('суббота'); // already Saturday in Belgrade
    expect(daysBetween('2026-11-20T23:30:00Z', '2026-11-21T22:59:00Z', tz)).toBe(0); // both on the 21st there
    expect(daysBetween('2026-11-20T12:00:00Z', '2026-11-21T23:30:00Z', tz)).toBe(2);
  });

  it('prices group thousands; plurals follow Russian rules', () => {
    expect(formatPrice(12000)).toBe('12\u00a0000\u00a0RSD');
    expect(formatPrice(350)).toBe('350\u00a0RSD');
    expect([0, 3, 14, 101, 1002].map((n) => plural(n, ['запись', 'записи', 'записей']))).toEqual([
      'записей',
      'записи',
      'записей',
      'запись',
      'записи',
    ]);
  });
});
