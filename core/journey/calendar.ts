import crypto from 'node:crypto';
import type { RecordSchedule } from '../../contract';
import { DEFAULT_LANGUAGE, titleIn, type Language } from '../../contract/language';
import { DEFAULT_DURATION_MINUTES } from '../../contract/workshops';

/*
 * "Добавить в календарь": a booking as an RFC 5545 iCalendar file. Calendar apps fetch it without
 * Telegram's init data, so the link carries an HMAC of the record id (SECRET_KEY): unguessable,
 * and valid only for that record. Times are written in UTC (always unambiguous, no VTIMEZONE
 * needed); X-WR-TIMEZONE names the business's zone for apps that show it.
 */

export function calendarSignature(secretKey: string, recordId: number): string {
  return crypto.createHmac('sha256', secretKey).update(`calendar:${recordId}`).digest('base64url').slice(0, 32);
}

export function verifyCalendarSignature(secretKey: string, recordId: number, sig: string): boolean {
  const expected = Buffer.from(calendarSignature(secretKey, recordId));
  const given = Buffer.from(sig);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** The path of a record's calendar file, under the API prefix. */
export const calendarPath = (secretKey: string, recordId: number) =>
  `/api/v1/records/${recordId}/calendar.ics?sig=${calendarSignature(secretKey, recordId)}`;

/**
 * A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped; every line break (CRLF,
 * LF or a bare CR, which calendar apps would read as the end of the line) becomes `\n`; other control
 * characters, which TEXT cannot hold, are dropped (tab stays).
 */
const text = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '');

/** A value that must stay on its one line (the map link as URL): line breaks and control characters dropped. */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const oneLine = (s: string) => s.replace(/[\u0000-\u0008\u000A-\u001F\u007F]/g, '');

const utc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Lines longer than 75 octets are folded (CRLF + space), never inside a UTF-8 character. */
function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    if (octets + size > (out.length === 0 ? 75 : 74)) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** The event's description in the customer's language. */
const TEXTS: Record<Language, { workshop: (title: string, business: string) => string; map: string; booking: string }> =
  {
    ru: { workshop: (t, b) => `Мастер-класс «${t}», ${b}`, map: 'Карта', booking: 'Ваша запись' },
    en: { workshop: (t, b) => `Workshop “${t}”, ${b}`, map: 'Map', booking: 'Your booking' },
    sr: { workshop: (t, b) => `Radionica „${t}“, ${b}`, map: 'Mapa', booking: 'Vaša prijava' },
  };

export interface CalendarEvent {
  recordId: number;
  /** The customer's language (Russian when absent): the texts and the workshop's title. */
  language?: Language;
  schedule: RecordSchedule;
  businessName: string;
  timezone: string;
  /** The booking page, for the event's description. */
  recordUrl: string;
  host: string;
  now?: Date;
}

export function bookingCalendar(e: CalendarEvent): string {
  const s = e.schedule;
  const language = e.language ?? DEFAULT_LANGUAGE;
  const say = TEXTS[language];
  const title = titleIn(s.workshop, language);
  const start = new Date(s.date);
  const minutes = s.workshop.duration_minutes ?? DEFAULT_DURATION_MINUTES;
  const end = new Date(start.getTime() + minutes * 60_000);
  const location = [s.address.title, s.address.description].filter(Boolean).join(', ');
  const description = [
    say.workshop(title, e.businessName),
    `${say.map}: ${s.address.map_link}`,
    `${say.booking}: ${e.recordUrl}`,
  ].join('\n');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${text(e.businessName)}//Workshop booking//RU`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-TIMEZONE:${e.timezone}`,
    'BEGIN:VEVENT',
    `UID:record-${e.recordId}@${e.host}`,
    `DTSTAMP:${utc(e.now ?? new Date())}`,
    `DTSTART:${utc(start)}`,
    `DTEND:${utc(end)}`,
    `SUMMARY:${text(`${title} — ${e.businessName}`)}`,
    `LOCATION:${text(location)}`,
    `DESCRIPTION:${text(description)}`,
    ...(/^https?:\/\//i.test(s.address.map_link) ? [`URL:${oneLine(s.address.map_link)}`] : []),
    ...(s.address.latitude != null && s.address.longitude != null
      ? [`GEO:${s.address.latitude};${s.address.longitude}`]
      : []),
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${text(s.workshop.title)}`,
    'TRIGGER:-PT2H',
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(fold).join('\r\n') + '\r\n';
}
