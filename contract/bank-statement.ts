import { z } from './zod';
import { idField } from './common';
import { PageQuery } from './paging';

/*
 * Bank statements staff import: the credit lines of the studio's account, matched to bookings (and gift
 * certificates waiting for payment) by the IPS QR's reference and amount; what does not match waits for staff.
 */

/** The fields a statement line gives, by the column they come from. */
export const BANK_COLUMN_FIELDS = ['date', 'amount', 'reference', 'payer', 'purpose', 'id'] as const;
export type BankColumnField = (typeof BANK_COLUMN_FIELDS)[number];

/**
 * The column names looked for when an upload names none, in order, compared without case, accents or
 * punctuation: a common Serbian bank export (Datum; Potražuje or Iznos; Poziv na broj; Naziv or Platilac).
 */
export const BANK_COLUMN_DEFAULTS: Record<BankColumnField, readonly string[]> = {
  date: ['Datum', 'Datum valute', 'Datum knjiženja', 'Datum izvršenja', 'Date'],
  amount: ['Potražuje', 'Uplata', 'Iznos', 'Amount'],
  reference: ['Poziv na broj', 'Poziv na broj odobrenja', 'Poziv na broj primaoca', 'Reference'],
  payer: ['Naziv', 'Platilac', 'Nalogodavac', 'Naziv platioca', 'Payer'],
  purpose: ['Svrha', 'Svrha plaćanja', 'Svrha doznake', 'Purpose'],
  id: ['ID transakcije', 'Broj transakcije', 'Referenca', 'Transaction ID'],
};

export const BANK_LINE_STATUSES = ['matched', 'unmatched', 'attached', 'dismissed'] as const;
export type BankLineStatus = (typeof BANK_LINE_STATUSES)[number];
export const BANK_LINE_STATUS_LABELS: Record<BankLineStatus, string> = {
  matched: 'Сверено',
  unmatched: 'Не сверено',
  attached: 'Привязано',
  dismissed: 'Отклонено',
};

const columnName = z.string().trim().max(100, 'Название столбца: не больше 100 символов').optional();

/** A statement as text (its CSV, or IPS payments pasted as CSV), and the column names when not the defaults. */
export const BankStatementImport = z.object({
  text: z
    .string({ error: 'Загрузите выписку в CSV' })
    .min(1, 'Выписка пуста')
    .max(250_000, 'Выписка больше 250 000 символов: загрузите её частями'),
  columns: z
    .object({
      date: columnName,
      amount: columnName,
      reference: columnName,
      payer: columnName,
      purpose: columnName,
      id: columnName,
    })
    .optional(),
});
export type BankStatementImport = z.input<typeof BankStatementImport>;

/** What an import did with the statement's credit lines. */
export const BankStatementResult = z.object({
  /** Credit lines read (debits and empty lines are skipped). */
  lines: z.number().int(),
  /** Recorded in the ledger by their reference. */
  matched: z.number().int(),
  /** New lines left for staff. */
  unmatched: z.number().int(),
  /** Lines imported before: nothing changed. */
  already: z.number().int(),
});
export type BankStatementResult = z.infer<typeof BankStatementResult>;

export const BankLinePublic = z.object({
  id: z.number().int(),
  booked_on: z.string(),
  amount: z.number().int(),
  reference: z.string(),
  payer: z.string(),
  purpose: z.string(),
  status: z.enum(BANK_LINE_STATUSES),
  record_id: z.number().int().nullable(),
  certificate_id: z.number().int().nullable(),
  payment_id: z.number().int().nullable(),
  dismiss_reason: z.string().nullable(),
  imported_at: z.string(),
  resolved_at: z.string().nullable(),
  /** The booking the reference names (model 97 over its number), whatever became of the line. */
  reference_record_id: z.number().int().nullable(),
});
export type BankLinePublic = z.infer<typeof BankLinePublic>;

export const BankLinesQuery = PageQuery.extend({ status: z.enum(BANK_LINE_STATUSES).default('unmatched') });
export type BankLinesQuery = z.input<typeof BankLinesQuery>;

export const BankLinesPublic = z.object({ data: z.array(BankLinePublic), count: z.number().int() });
export type BankLinesPublic = z.infer<typeof BankLinesPublic>;

/** Staff attach an unmatched line to a booking by its number: the line's amount is recorded as its transfer. */
export const BankLineAttach = z.object({ record_id: idField('Укажите номер записи') });
export type BankLineAttach = z.input<typeof BankLineAttach>;

/** Staff dismiss a line that is no booking's money (a refund from a supplier, a wrong transfer), with why. */
export const BankLineDismiss = z.object({
  reason: z.string({ error: 'Укажите причину' }).trim().min(1, 'Укажите причину').max(500),
});
export type BankLineDismiss = z.input<typeof BankLineDismiss>;
