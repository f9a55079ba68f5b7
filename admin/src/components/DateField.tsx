import '@mantine/dates/styles.css';
// Russian month and weekday names in the calendar.
import 'dayjs/locale/ru';
import { DateInput, DatesProvider, type DateInputProps } from '@mantine/dates';

/** The calendar in Russian, weeks from Monday: one setting for every date field of the admin. */
export const RU_DATES = { locale: 'ru', firstDayOfWeek: 1 as const, weekendDays: [] };

/** «31.12.2026» → '2026-12-31'; a day that does not exist (31.02) is no day. */
export function parseRuDay(text: string): string | null {
  const m = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\s*$/.exec(text);
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** The calendar's arrows, named for screen readers (its heading is named by its text). */
const CALENDAR_LABELS = {
  previousMonth: 'Предыдущий месяц',
  nextMonth: 'Следующий месяц',
  previousYear: 'Предыдущий год',
  nextYear: 'Следующий год',
  previousDecade: 'Предыдущее десятилетие',
  nextDecade: 'Следующее десятилетие',
};

export type DateFieldProps = Omit<DateInputProps, 'value' | 'onChange' | 'defaultValue'> & {
  /** The day as YYYY-MM-DD, '' for none. */
  value: string;
  onChange: (day: string) => void;
};

/**
 * A day typed or picked as дд.мм.гггг, whatever the browser's language (a native date input follows
 * the browser, mm/dd/yyyy in an English one); the value stays YYYY-MM-DD as the API takes it.
 */
export function DateField({ value, onChange, ...props }: DateFieldProps) {
  return (
    <DatesProvider settings={RU_DATES}>
      <DateInput
        valueFormat="DD.MM.YYYY"
        placeholder="дд.мм.гггг"
        dateParser={parseRuDay}
        clearable
        clearButtonProps={{ 'aria-label': 'Очистить дату' }}
        // Days of other months are shown faded: too faint to read, and not needed to pick a day.
        hideOutsideDates
        ariaLabels={CALENDAR_LABELS}
        popoverProps={{ withinPortal: true }}
        {...props}
        value={value || null}
        onChange={(day) => onChange(day ?? '')}
      />
    </DatesProvider>
  );
}
