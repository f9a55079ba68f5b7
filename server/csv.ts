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

type Row = readonly (string | number | null)[];

/** One row, with its CRLF. */
export const csvRow = (row: Row) => row.map(csvField).join(';') + '\r\n';

export const toCsv = (header: readonly string[], rows: readonly Row[]) => BOM + [header, ...rows].map(csvRow).join('');

/** A CSV written as its rows come: the header first, then each batch of rows as it is read. */
export async function* csvStream<T>(header: readonly string[], batches: AsyncIterable<T[]>, cells: (item: T) => Row) {
  yield BOM + csvRow(header);
  for await (const batch of batches) if (batch.length > 0) yield batch.map((item) => csvRow(cells(item))).join('');
}
