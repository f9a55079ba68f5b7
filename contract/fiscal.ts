import { z } from './zod';

/*
 * Fiscal receipts (Serbian e-fiscalization): the studio's settings and what staff see of each
 * receipt. The receipts themselves come from the PFR; the product never invents a tax rate.
 */

/** `lpfr`: the TaxCore ESIR ↔ PFR protocol v3 (L-PFR or V-PFR); `manual`: staff type the number from their own register; `off`. */
export const FiscalMode = z.enum(['off', 'lpfr', 'manual'], { error: 'Выберите: выключено, L-PFR/V-PFR или вручную' });
export type FiscalMode = z.infer<typeof FiscalMode>;

/**
 * When a gift certificate (a multi-purpose amount voucher) is fiscalized: `redemption` (no receipt at
 * the sale, the service's receipt is paid by Voucher) or `sale` (an advance receipt at the sale,
 * closed by the service's receipt). The law leaves multi-purpose vouchers open: the studio chooses.
 */
export const CertificateReceipts = z.enum(['redemption', 'sale'], { error: 'Выберите, когда выдавать чек за сертификат' });
export type CertificateReceipts = z.infer<typeof CertificateReceipts>;

/** A tax label as the PFR's current rates define it (one or two letters, e.g. «Ђ», «А», «Г»). */
const TaxLabel = z
  .string()
  .trim()
  .min(1, 'Выберите налоговую метку')
  .max(2, 'Налоговая метка: одна или две буквы');

export const FiscalSettings = z.object({
  fiscal_mode: FiscalMode,
  /** The PFR's base URL, e.g. `http://127.0.0.1:7555` for an L-PFR on the studio's computer. */
  fiscal_pfr_url: z.union([z.literal(''), z.url({ error: 'Адрес PFR: полный адрес, например http://127.0.0.1:7555' })]),
  /** Training: every receipt is sent as invoice type Training (no fiscal effect). */
  fiscal_training: z.boolean(),
  /** The cashier named on receipts. */
  fiscal_cashier: z.string().trim().max(50, 'Кассир: не больше 50 символов'),
  /** The labels the studio's workshops, certificates and passes carry. */
  fiscal_label_workshop: z.union([z.literal(''), TaxLabel]),
  fiscal_label_certificate: z.union([z.literal(''), TaxLabel]),
  fiscal_label_pass: z.union([z.literal(''), TaxLabel]),
  fiscal_certificate_receipts: CertificateReceipts,
});
export type FiscalSettings = z.infer<typeof FiscalSettings>;

export const DEFAULT_FISCAL_SETTINGS: FiscalSettings = {
  fiscal_mode: 'off',
  fiscal_pfr_url: '',
  fiscal_training: false,
  fiscal_cashier: '',
  fiscal_label_workshop: '',
  fiscal_label_certificate: '',
  fiscal_label_pass: '',
  fiscal_certificate_receipts: 'redemption',
};

export const FiscalSettingsUpdate = FiscalSettings.partial();
export type FiscalSettingsUpdate = z.infer<typeof FiscalSettingsUpdate>;

/** A receipt's state as staff see it: waiting (to send or, manual, to type), needs_buyer, issued, refused. */
export const FiscalReceiptState = z.enum(['waiting', 'needs_buyer', 'issued', 'refused']);
export type FiscalReceiptState = z.infer<typeof FiscalReceiptState>;
