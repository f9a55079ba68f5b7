/*
 * What customers see of fiscal receipts: a receipt's kind, and the buyer's identification on one (`buyerId`, `<code>:<number>`), as the rulebook on fiscal
 * documents lists its codes: a refund receipt must carry it. These are the documents a customer of the
 * studio may give (a person's, or a company's PIB); the number is checked here so the PFR is never sent
 * one it would refuse. Plain module: the bot and the front ends load it without zod.
 */

/**
 * 20 domestic ID card, 23 domestic passport, 30 a foreign passport, 22 a foreigner's registration
 * number (EBS), 10 a company's PIB.
 */
export const BUYER_DOCUMENTS = ['20', '23', '30', '22', '10'] as const;
export type BuyerDocument = (typeof BUYER_DOCUMENTS)[number];

export const isBuyerDocument = (v: unknown): v is BuyerDocument => BUYER_DOCUMENTS.includes(v as BuyerDocument);

/** The PFR takes a buyer ID of at most 20 characters, the code and the colon included. */
export const BUYER_ID_MAX = 20;

/** What is wrong with a number: nothing given, not the document's shape, or a PIB whose control digit fails. */
export type BuyerIdProblem = 'empty' | 'format' | 'checksum';

/** The shape of each document's number (after spaces and dashes are dropped, letters upper-cased). */
const SHAPES: Record<BuyerDocument, RegExp> = {
  '20': /^\d{9}$/,
  '23': /^\d{9}$/,
  '22': /^\d{13}$/,
  '10': /^\d{9}$/,
  // ICAO passports: letters and digits; the code and colon leave 17 characters.
  '30': new RegExp(`^[A-Z0-9]{5,${BUYER_ID_MAX - 3}}$`),
};

/** A PIB's ninth digit is its ISO 7064 MOD 11,10 control digit over the first eight. */
export function pibChecks(pib: string): boolean {
  if (!/^\d{9}$/.test(pib)) return false;
  let p = 10;
  for (let i = 0; i < 8; i++) {
    let s = (Number(pib[i]) + p) % 10;
    if (s === 0) s = 10;
    p = (2 * s) % 11;
  }
  return (11 - p) % 10 === Number(pib[8]);
}

/** The number as it is stored: no spaces or dashes, letters upper case. */
export const normalizeBuyerNumber = (input: string) => input.replace(/[\s\-–—./]+/g, '').toUpperCase();

/** A typed number as the receipt's `buyerId` (`<code>:<number>`), or what is wrong with it. */
export function parseBuyerId(
  document: BuyerDocument,
  input: string,
): { ok: true; buyerId: string } | { ok: false; problem: BuyerIdProblem } {
  const number = normalizeBuyerNumber(input);
  if (number === '') return { ok: false, problem: 'empty' };
  if (!SHAPES[document].test(number)) return { ok: false, problem: 'format' };
  if (document === '10' && !pibChecks(number)) return { ok: false, problem: 'checksum' };
  return { ok: true, buyerId: `${document}:${number}` };
}

/** A receipt's kind as a customer reads it: its invoice type and transaction type together. */
export type ReceiptKind =
  'advance_sale' | 'advance_refund' | 'normal_sale' | 'normal_refund' | 'copy' | 'training' | 'proforma';

export function receiptKind(invoiceType: string, transactionType: string): ReceiptKind {
  const refund = transactionType === 'Refund';
  switch (invoiceType) {
    case 'Advance':
      return refund ? 'advance_refund' : 'advance_sale';
    case 'Copy':
      return 'copy';
    case 'Training':
      return 'training';
    case 'Proforma':
      return 'proforma';
    default:
      return refund ? 'normal_refund' : 'normal_sale';
  }
}
