/*
 * CSV as Excel in a Russian locale opens it by double-click: UTF-8 with a BOM (else Cyrillic is
 * garbled), ';' between fields (',' is the decimal separator there), CRLF between rows.
 */

const BOM = '\ufeff';

/** A field is quoted when it holds a separator, a quote or a line break; quotes are doubled. A text that
 * starts like a formula gets a leading apostrophe, so a customer's name is never run as one. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[;"\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const toCsv = (header: readonly string[], rows: readonly (readonly (string | number | null)[])[]) =>
  BOM + [header, ...rows].map((row) => row.map(csvField).join(';')).join('\r\n') + '\r\n';
