import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { BANK_COLUMN_DEFAULTS, BANK_COLUMN_FIELDS, type BankColumnField } from '../../contract/bank-statement';
import { Invalid } from '../kernel/errors';

/*
 * A bank statement's CSV read into credit lines: the separator guessed from the header (';', ',' or a tab),
 * the header found among the first lines (banks print the account and period above it), the columns by
 * the names staff gave or the defaults, amounts as banks print them ("3.500,00", "3500.00").
 */

export interface StatementLine {
  /** Unique per line: the bank's transaction id, else a hash of the line and its occurrence in the statement. */
  key: string;
  booked_on: string;
  amount: number;
  reference: string;
  payer: string;
  purpose: string;
}

/** "Potražuje" and "potrazuje", "Poziv na broj" and "poziv_na_broj" are one column. */
const normal = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** The separator the top lines use most (the header has the most cells; amounts may hold a ','). */
function separatorOf(text: string): string {
  const lines = text.split(/\r?\n/).slice(0, 20);
  const score = (sep: string) => Math.max(...lines.map((l) => l.split(sep).length - 1));
  return [';', '\t', ','].reduce((best, sep) => (score(sep) > score(best) ? sep : best), ';');
}

/**
 * Whole dinars from a bank's amount: the last '.' or ',' followed by one or two digits is the decimal
 * point, any other is a thousands separator. Null when it is no amount or has paras (not a whole dinar).
 */
export function parseAmount(raw: string): number | null {
  const s = raw.replace(/[\s\u00a0']/g, '').replace(/(RSD|din\.?)$/i, '');
  if (!/^[+-]?[\d.,]+$/.test(s)) return null;
  const decimal = /[.,](\d{1,2})$/.exec(s);
  const whole = (decimal ? s.slice(0, decimal.index) : s).replace(/[.,]/g, '');
  if (!/^[+-]?\d+$/.test(whole)) return null;
  if (decimal && Number(decimal[1]) !== 0) return null;
  return Number(whole);
}

/** YYYY-MM-DD from a day written dd.mm.yyyy (optionally ending in a dot), dd/mm/yyyy or yyyy-mm-dd; null otherwise. */
export function parseDate(raw: string): string | null {
  const s = raw.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{1,2})[./](\d{1,2})[./](\d{4})\.?/.exec(s);
  if (m) return `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}`;
  return null;
}

type Columns = Partial<Record<BankColumnField, string | undefined>>;

/** Where each field's column is in a header row, or the fields it lacks (date and amount are required). */
function locate(header: string[], names: Columns): { at: Partial<Record<BankColumnField, number>>; missing: string[] } {
  const cells = header.map(normal);
  const at: Partial<Record<BankColumnField, number>> = {};
  const missing: string[] = [];
  for (const field of BANK_COLUMN_FIELDS) {
    const wanted = names[field] ? [names[field]!] : BANK_COLUMN_DEFAULTS[field];
    const i = wanted.map((w) => cells.indexOf(normal(w))).find((x) => x >= 0);
    if (i !== undefined) at[field] = i;
    else if (field === 'date' || field === 'amount' || names[field]) missing.push(wanted[0]);
  }
  return { at, missing };
}

/** The statement's credit lines (debits, zero and unreadable amounts skipped), each with its key. */
export function parseStatement(text: string, names: Columns = {}): { lines: StatementLine[]; skipped: number } {
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter: separatorOf(text),
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
    });
  } catch {
    throw new Invalid('bankStatementUnreadable');
  }
  // The header is the first of the top lines that names the date and the amount.
  let headerAt = -1;
  let found = locate(rows[0] ?? [], names);
  for (let i = 0; i < Math.min(rows.length, 30); i++) {
    const tried = locate(rows[i], names);
    if (tried.missing.length === 0) {
      headerAt = i;
      found = tried;
      break;
    }
  }
  if (headerAt < 0) throw new Invalid({ code: 'bankStatementColumns', args: { missing: found.missing.join(', ') } });
  const { at } = found;
  const cell = (row: string[], f: BankColumnField) => (at[f] === undefined ? '' : (row[at[f]!] ?? '').trim());
  const seen = new Map<string, number>();
  const lines: StatementLine[] = [];
  let skipped = 0;
  for (const row of rows.slice(headerAt + 1)) {
    const booked_on = parseDate(cell(row, 'date'));
    const amount = parseAmount(cell(row, 'amount'));
    if (!booked_on || amount === null || amount <= 0) {
      skipped++;
      continue;
    }
    const line = {
      booked_on,
      amount,
      reference: cell(row, 'reference'),
      payer: cell(row, 'payer'),
      purpose: cell(row, 'purpose'),
    };
    const id = cell(row, 'id');
    // Two equal transfers on one day are two lines: the second counts as the second of its kind.
    const same = [line.booked_on, line.amount, line.reference, line.payer].join('|');
    const n = (seen.get(same) ?? 0) + 1;
    seen.set(same, n);
    const key = id ? `bank:${id}` : `hash:${createHash('sha256').update(`${same}|${n}`).digest('hex')}`;
    lines.push({ key, ...line });
  }
  return { lines, skipped };
}
