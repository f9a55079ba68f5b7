import crypto from 'node:crypto';
import { isPast } from '../../contract/format';
import type { RecordSchedule } from '../../contract';
import { nowIso, type Database } from '../../db/database';
import { withLocks } from '../../db/lock';
import {
  findOpenBooking,
  getRecord,
  hasBookedBefore,
  setRecordOwner,
  type RecordRow,
} from '../../db/repositories/records';
import { closeSeatGifts, getSeatGift, insertSeatGift } from '../../db/repositories/seat-gifts';
import { getRecordSchedule } from '../../db/repositories/schedules';
import { customerActor, type Actor } from '../kernel/actor';
import { Conflict, NotFound } from '../kernel/errors';
import { onRecord } from '../booking/command';
import { assertAllowed } from '../booking/allowed';
import { consentFor } from '../booking/consent';
import { publish } from '../notify/publish';

/*
 * Giving a seat to a friend: the customer gets a one-time link; the friend opens it in the
 * mini-app, enters their name and allergy and confirms, and the booking (same seats, same state,
 * same place in the queue) becomes theirs, under the session's lock. The link dies when used, when
 * the booking is cancelled or given away, and when the session starts. Only a hash of the token is
 * stored. The rule "one open booking per Telegram user per session" holds: a friend who already
 * has one is refused.
 */

export const GIFT_MSG = {
  invalid: 'giftInvalid',
  own: 'giftOwn',
  friendHasBooking: 'giftFriendHasBooking',
} as const;

/** Telegram's /start parameter: the prefix plus the token (letters, digits, _ and - only, ≤ 64). */
export const GIFT_START_PREFIX = 'gift_';

/** The friend's link: the bot's /start with the token, answered with a button into the mini-app. */
export const giftUrl = (botUsername: string, token: string) =>
  `https://t.me/${botUsername}?start=${GIFT_START_PREFIX}${token}`;

const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export interface SeatGiftLink {
  token: string;
  /** The link dies at the start of the session. */
  expires_at: string;
}

/** A new link for the owner's booking (earlier links stay valid until one is used). */
export function createSeatGift(database: Database, actor: Actor, recordId: number): Promise<SeatGiftLink> {
  return onRecord(database, actor, recordId, async (c) => {
    assertAllowed(c.allowed, 'gift');
    const token = crypto.randomBytes(16).toString('base64url');
    await insertSeatGift(c.trx, { token_hash: hash(token), record_id: c.record.id, created_at: nowIso() });
    return { value: { token, expires_at: c.schedule.date }, events: [] };
  });
}

export interface SeatGiftView {
  record: RecordRow;
  schedule: RecordSchedule;
}

/** The booking behind a live link; NotFound with one message whatever killed it. */
async function liveGift(db: Parameters<typeof getSeatGift>[0], token: string): Promise<SeatGiftView> {
  const gift = /^[\w-]{10,64}$/.test(token) ? await getSeatGift(db, hash(token)) : undefined;
  if (!gift || gift.used_at) throw new NotFound(GIFT_MSG.invalid);
  const record = await getRecord(db, gift.record_id);
  if (!record || record.state === 'CANCELLED') throw new NotFound(GIFT_MSG.invalid);
  const schedule = await getRecordSchedule(db, record.schedule_id);
  if (!schedule || isPast(schedule.date)) throw new NotFound(GIFT_MSG.invalid);
  return { record, schedule };
}

/** What the friend sees before accepting. */
export const viewSeatGift = (database: Database, token: string) => liveGift(database.db, token);

export interface Receiver {
  telegram_id: number;
  telegram_login: string | null;
  name: string;
  last_name: string | null;
  has_allergy: boolean;
  allergy_type: string | null;
  /** The friend accepted the privacy text (the mini-app's consent line), as every customer booking must. */
  consent?: boolean;
}

/**
 * The friend accepts: the booking becomes theirs, the giver and staff are told. The friend's own lock
 * is taken too, so their erasure cannot miss a booking they receive meanwhile. The giver's answers
 * about themselves (first visit, where they heard of us) do not describe the friend: the first visit is
 * the friend's own (no earlier booking of theirs), the source is cleared.
 */
export async function acceptSeatGift(database: Database, token: string, friend: Receiver): Promise<SeatGiftView> {
  const first = await liveGift(database.db, token);
  const keys = { telegramIds: [friend.telegram_id], scheduleIds: [first.record.schedule_id] };
  return withLocks(database, keys, async (trx) => {
    const { record: r, schedule } = await liveGift(trx, token);
    if (r.telegram_id === friend.telegram_id) throw new Conflict(GIFT_MSG.own);
    if (await findOpenBooking(trx, schedule.id, friend.telegram_id, r.id))
      throw new Conflict(GIFT_MSG.friendHasBooking);
    const { consent, ...owner } = friend;
    const record = await setRecordOwner(trx, r.id, {
      ...owner,
      ...(await consentFor(trx, consent, true)),
      is_first_time: !(await hasBookedBefore(trx, friend.telegram_id, r.id)),
      source: null,
    });
    await closeSeatGifts(trx, r.id, nowIso());
    const actor = customerActor(friend.telegram_id);
    await publish(trx, [{ type: 'record.transferred', actor, before: r, record, schedule }]);
    return { record, schedule };
  });
}
