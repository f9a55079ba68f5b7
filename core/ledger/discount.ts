import { discountOf, normalizePromoCode, type RecordSchedule } from '../../contract';
import { type Executor } from '../../db/database';
import {
  countUses,
  findPromoCode,
  getPromoCodeRow,
  hasBooked,
  workshopIdsOf,
  type PromoCodeRow,
} from '../../db/repositories/promo-codes';
import type { RecordRow } from '../../db/repositories/records';
import { bool } from '../../db/database';
import { Conflict, type FixedRefusalCode } from '../kernel/errors';

/*
 * Promo codes: a percent or a fixed sum off a booking's price, a part of the price (never a payment).
 * A booking that is not cancelled (ACTIVE, QUEUED, or past) holds one use of its code; a cancelled one
 * gives the use back, and restoring it takes a use again when one is left (else it is restored at the
 * full price). A use is its redeemer's (who booked with it), even once the seat is given to a friend. Uses are counted under a lock of the code's row, taken after the customer's and the
 * session's locks, so the total limit and once-per-customer hold however many book at once. The rules
 * about the customer (once each, first visit only) apply to a Telegram customer; a booking staff make
 * for someone without Telegram counts only toward the total.
 */

export const PROMO_MSG = {
  unknown: 'promoUnknown',
  notYet: 'promoNotYet',
  expired: 'promoExpired',
  workshop: 'promoWorkshop',
  usedUp: 'promoUsedUp',
  usedByYou: 'promoUsedByYou',
  firstTimeOnly: 'promoFirstTimeOnly',
  duplicate: 'promoDuplicate',
  noWorkshop: 'promoNoWorkshop',
} as const;

/** Who and what a code is checked for. */
export interface PromoUse {
  schedule: RecordSchedule;
  people: number;
  telegramId: number | null;
  /** The booking that already holds it (a restore, a party change): not counted against itself. */
  recordId?: number;
  now?: Date;
  /** Inside the booking's write transaction: count uses under the code's lock. */
  lock?: boolean;
}

/** The refusal of a code for this use, or null when it may be used. */
async function refusal(trx: Executor, row: PromoCodeRow, u: PromoUse): Promise<FixedRefusalCode | null> {
  const now = (u.now ?? new Date()).toISOString();
  if (!bool(row.is_active)) return PROMO_MSG.unknown;
  if (row.starts_at && now < new Date(row.starts_at).toISOString()) return PROMO_MSG.notYet;
  if (row.ends_at && now >= new Date(row.ends_at).toISOString()) return PROMO_MSG.expired;
  const workshops = await workshopIdsOf(trx, row.id);
  if (workshops.length > 0 && !workshops.includes(u.schedule.workshop.id)) return PROMO_MSG.workshop;
  if (u.telegramId !== null) {
    if (
      bool(row.once_per_customer) &&
      (await countUses(trx, row.id, { telegramId: u.telegramId, exceptRecordId: u.recordId })) > 0
    )
      return PROMO_MSG.usedByYou;
    if (bool(row.first_time_only) && (await hasBooked(trx, u.telegramId, u.recordId))) return PROMO_MSG.firstTimeOnly;
  }
  if (row.max_uses !== null && (await countUses(trx, row.id, { exceptRecordId: u.recordId })) >= row.max_uses)
    return PROMO_MSG.usedUp;
  return null;
}

/** The code and its discount on this session's price for the party; Conflict with the reason when it cannot be used. */
export async function applyPromo(
  trx: Executor,
  code: string,
  u: PromoUse,
): Promise<{ promo: PromoCodeRow; price: number; discount: number }> {
  const promo = await findPromoCode(trx, normalizePromoCode(code), u.lock);
  if (!promo) throw new Conflict(PROMO_MSG.unknown);
  const reason = await refusal(trx, promo, u);
  if (reason) throw new Conflict(reason);
  const price = u.schedule.workshop.price * u.people;
  return { promo, price, discount: discountOf(promo, price) };
}

/**
 * A new booking's code and discount, to store on it; Conflict with the reason when it cannot be used.
 * Checked under the booking's customer and session locks, then the code's own (before a certificate's).
 */
export async function promoForBooking(
  trx: Executor,
  code: string | null | undefined,
  u: Omit<PromoUse, 'lock' | 'recordId'>,
): Promise<{ promo_code_id?: number; discount?: number; promo_telegram_id?: number | null }> {
  if (!code?.trim()) return {};
  const { promo, discount } = await applyPromo(trx, code, { ...u, lock: true });
  // The redeemer stays with the code's use when the seat is given away.
  return { promo_code_id: promo.id, discount, promo_telegram_id: u.telegramId };
}

/** A party change: the discount follows the new price (a percent of it, a fixed sum up to it). */
export async function repricePromo(trx: Executor, record: RecordRow, peopleCount: number) {
  if (record.promo_code_id === null) return {};
  const promo = await getPromoCodeRow(trx, record.promo_code_id);
  return promo ? { discount: discountOf(promo, record.unit_price * peopleCount) } : {};
}

/**
 * A cancelled booking coming back takes its code's use again while the code still allows it (the lock of
 * the code is taken after the session's); when it does not, the booking comes back at the full price.
 */
export async function reclaimPromo(trx: Executor, record: RecordRow, schedule: RecordSchedule) {
  if (record.promo_code_id === null) return {};
  const promo = await getPromoCodeRow(trx, record.promo_code_id, true);
  const u = { schedule, people: record.people_count, telegramId: record.promo_telegram_id, recordId: record.id };
  if (promo && (await refusalOnRestore(trx, promo, u)) === null) return {};
  return { promo_code_id: null, discount: 0 };
}

/** On a restore the code's dates do not matter (the booking got it while it was valid); its uses do. */
function refusalOnRestore(trx: Executor, promo: PromoCodeRow, u: PromoUse) {
  return refusal(trx, { ...promo, starts_at: null, ends_at: null, is_active: 1 }, u);
}
