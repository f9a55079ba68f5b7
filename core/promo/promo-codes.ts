import type { PriceQuote, PriceQuoteRequest, PromoCodeCreate, PromoCodePublic, PromoCodeUpdate } from '../../contract';
import { startOfStudioDay } from '../../contract/format';
import { integrityViolation, type Database, type Executor } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import {
  existingWorkshops,
  findPromoCode,
  getPromoCode,
  insertPromoCode,
  listPromoCodes,
  setPromoWorkshops,
  updatePromoCode,
  type PromoCodeFields,
} from '../../db/repositories/promo-codes';
import { getRecordSchedule } from '../../db/repositories/schedules';
import { assertCan, type Actor } from '../kernel/actor';
import { Conflict, Invalid, NotFound } from '../kernel/errors';
import { MSG } from '../kernel/messages';
import { applyPromo, PROMO_MSG } from '../ledger/discount';
import { publish } from '../notify/publish';

/*
 * Promo codes as the owner manages them, and a price quoted before booking. What a code takes off a
 * booking's price, and when it may be used, is decided with the booking's money (ledger/discount.ts).
 */

const ENTITY = 'promo_code';

/** What a booking would cost now: the price, a promo code's discount, the total. */
export async function quotePrice(db: Executor, actor: Actor, q: PriceQuoteRequest): Promise<PriceQuote> {
  const schedule = await getRecordSchedule(db, q.schedule_id);
  if (!schedule) throw new NotFound(MSG.scheduleNotFound);
  const people = q.people_count ?? 1;
  const price = schedule.workshop.price * people;
  const code = q.promo_code?.trim();
  if (!code) return { price, discount: 0, total: price, promo_code: null };
  const telegramId = actor.kind === 'customer' ? actor.telegram_id : null;
  const { promo, discount } = await applyPromo(db, code, { schedule, people, telegramId });
  return { price, discount, total: price - discount, promo_code: promo.code };
}

/* The owner's management of codes. */

function fieldsOf(input: PromoCodeUpdate, timeZone: string): Partial<PromoCodeFields> {
  const f: Partial<PromoCodeFields> = {};
  if (input.code !== undefined) f.code = input.code;
  if (input.kind !== undefined) f.kind = input.kind;
  if (input.value !== undefined) f.value = input.value;
  if (input.valid_from !== undefined)
    f.starts_at = input.valid_from ? startOfStudioDay(input.valid_from, timeZone) : null;
  if (input.valid_to !== undefined) f.ends_at = input.valid_to ? startOfStudioDay(input.valid_to, timeZone, 1) : null;
  if (input.max_uses !== undefined) f.max_uses = input.max_uses ?? null;
  if (input.once_per_customer !== undefined) f.once_per_customer = input.once_per_customer;
  if (input.first_time_only !== undefined) f.first_time_only = input.first_time_only;
  if (input.is_active !== undefined) f.is_active = input.is_active;
  return f;
}

async function checkWorkshops(trx: Executor, ids: number[]) {
  if ((await existingWorkshops(trx, ids)).length !== new Set(ids).size) throw new Invalid(PROMO_MSG.noWorkshop);
}

/** A unique code refused as a duplicate rather than a server error (two owners creating one at once too). */
async function uniqueCode<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (integrityViolation(err) === 'unique') throw new Conflict(PROMO_MSG.duplicate);
    throw err;
  }
}

export function listCodes(db: Executor, actor: Actor, timeZone: string): Promise<PromoCodePublic[]> {
  assertCan(actor, 'promo.manage');
  return listPromoCodes(db, timeZone);
}

export function createPromoCode(
  database: Database,
  actor: Actor,
  input: PromoCodeCreate & { workshop_ids: number[] },
  timeZone: string,
): Promise<PromoCodePublic> {
  assertCan(actor, 'promo.manage');
  return uniqueCode(() =>
    withWriteTransaction(database, async (trx) => {
      if (await findPromoCode(trx, input.code)) throw new Conflict(PROMO_MSG.duplicate);
      await checkWorkshops(trx, input.workshop_ids);
      const f = fieldsOf(input, timeZone);
      const id = await insertPromoCode(trx, {
        code: input.code,
        kind: input.kind,
        value: input.value,
        starts_at: f.starts_at ?? null,
        ends_at: f.ends_at ?? null,
        max_uses: input.max_uses ?? null,
        once_per_customer: input.once_per_customer ?? true,
        first_time_only: input.first_time_only ?? false,
        is_active: input.is_active ?? true,
      });
      await setPromoWorkshops(trx, id, input.workshop_ids);
      const view = (await getPromoCode(trx, id, timeZone))!;
      await publish(trx, [{ type: 'entity.created', actor, entity: ENTITY, entity_id: id, after: audited(view) }]);
      return view;
    }),
  );
}

export function updateCode(
  database: Database,
  actor: Actor,
  id: number,
  input: PromoCodeUpdate,
  timeZone: string,
): Promise<PromoCodePublic> {
  assertCan(actor, 'promo.manage');
  return uniqueCode(() =>
    withWriteTransaction(database, async (trx) => {
      const before = await getPromoCode(trx, id, timeZone);
      if (!before) throw new NotFound(PROMO_MSG.unknown);
      const merged = { ...before, ...input };
      if (merged.kind === 'percent' && merged.value > 100) throw new Invalid('promoPercentRange');
      if (merged.valid_from && merged.valid_to && merged.valid_from > merged.valid_to)
        throw new Invalid('promoEndsBeforeStart');
      if (input.code !== undefined && input.code !== before.code && (await findPromoCode(trx, input.code)))
        throw new Conflict(PROMO_MSG.duplicate);
      await updatePromoCode(trx, id, fieldsOf(input, timeZone));
      if (input.workshop_ids !== undefined) {
        await checkWorkshops(trx, input.workshop_ids);
        await setPromoWorkshops(trx, id, input.workshop_ids);
      }
      const after = (await getPromoCode(trx, id, timeZone))!;
      await publish(trx, [
        {
          type: 'entity.updated',
          actor,
          entity: ENTITY,
          entity_id: id,
          before: audited(before),
          after: audited(after),
        },
      ]);
      return after;
    }),
  );
}

/** The log keeps the rule, not the count of uses (that is no change of the code). */
const audited = ({ uses: _uses, created_at: _created, ...rule }: PromoCodePublic) => rule;
