import type { BusinessSettings } from '../../contract';
import type { Executor } from '../../db/database';
import type { RecordRow } from '../../db/repositories/records';
import { loadForActor } from '../booking/command';
import type { Actor } from '../kernel/actor';
import { Conflict } from '../kernel/errors';
import { payableNow } from './telegram';

/*
 * The NBS IPS payment order that every Serbian bank app scans ("IPS QR"): tags separated by '|',
 * in the order K, V, C, R, N, I, SF, S, RO. R is the studio's 18-digit account, N the recipient
 * (≤ 70 characters), I the amount as RSD<whole>,<two decimals>, SF the payment code (289: a
 * transaction by a citizen's order), S the purpose (≤ 35), RO the reference (≤ 25): model 97 with
 * its mod-97 control digits and the booking's number, so staff can match the transfer.
 */

export const IPS_PAYMENT_CODE = '289';
export const IPS_LIMITS = { N: 70, S: 35, RO: 25 } as const;

/** A tag's value: no separator, no line breaks, at most `max` characters. */
const clean = (s: string, max: number) => [...s.replace(/[|\r\n]+/g, ' ').trim()].slice(0, max).join('').trim();

/** Model 97: two control digits (ISO 7064 MOD 97-10) before the number. */
export function model97Reference(digits: string): string {
  let rest = 0;
  for (const ch of digits + '00') rest = (rest * 10 + Number(ch)) % 97;
  return `97${String(98 - rest).padStart(2, '0')}${digits}`;
}

/** The booking's reference: model 97 over its number. */
export const bookingReference = (recordId: number) => model97Reference(String(recordId));

export function ipsText(
  s: Pick<BusinessSettings, 'bank_account' | 'bank_recipient'>,
  r: Pick<RecordRow, 'id'>,
  workshopTitle: string,
  amount: number,
): string {
  return [
    'K:PR',
    'V:01',
    'C:1',
    `R:${s.bank_account}`,
    `N:${clean(s.bank_recipient, IPS_LIMITS.N)}`,
    `I:RSD${amount},00`,
    `SF:${IPS_PAYMENT_CODE}`,
    `S:${clean(`Мастер-класс ${workshopTitle}`, IPS_LIMITS.S)}`,
    `RO:${bookingReference(r.id)}`,
  ].join('|');
}

/**
 * The payment order as a QR code, a PNG data URL (error correction M, as bank apps read it well).
 * The encoder is loaded on the first QR asked for, not at start-up.
 */
export async function ipsImage(text: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
}

/** Whether the studio takes IPS QR transfers (its account and the recipient's name are set). */
export const ipsEnabled = (s: Pick<BusinessSettings, 'bank_account' | 'bank_recipient'>) =>
  s.bank_account !== '' && s.bank_recipient !== '';

/**
 * The IPS QR order for what the caller's booking asks now (its owner, or staff): Conflict when the studio
 * takes no transfers, or the booking asks nothing now (cancelled, queued, paid).
 */
export async function ipsQr(db: Executor, actor: Actor, recordId: number): Promise<{ text: string; image: string }> {
  const c = await loadForActor(db, actor, recordId);
  if (!ipsEnabled(c.settings)) throw new Conflict('noTransfers');
  const due = await payableNow(db, c.record, c.settings);
  if ('refusal' in due) throw new Conflict(due.refusal);
  const text = ipsText(c.settings, c.record, c.schedule.workshop.title, due.amount);
  return { text, image: await ipsImage(text) };
}
