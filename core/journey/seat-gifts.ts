import crypto from 'node:crypto';
import type { RecordSchedule } from '../../contract';
import { nowIso, type Database } from '../../db/database';
import { withScheduleLock } from '../../db/lock';
import {
  findOpenBooking,
  getRecord,
  queuePosition,
  setRecordOwner,
  type RecordRow,
} from '../../db/repositories/records';
import { closeSeatGifts, getSeatGift, insertSeatGift } from '../../db/repositories/seat-gifts';
import { getRecordSchedule } from '../../db/repositories/schedules';
import { customerActor, writeAudit } from '../notify/audit';
import { MSG } from '../kernel/messages';
import { Conflict, NotFound } from '../kernel/errors';
import { withOwnRecord } from '../booking/own-record';
import { consentFor } from '../booking/consent';
import { notifyCustomer, notifyStaff, recordSnapshot, scheduleSnapshot } from '../notify/notifications';

/*
 * Giving a seat to a friend: the customer gets a one-time link; the friend opens it in the
 * mini-app, enters their name and allergy and confirms, and the booking (same seats, same state,
 * same place in the queue) becomes theirs, under the session's lock. The link dies when used, when
 * the booking is cancelled or given away, and when the session starts. Only a hash of the token is
 * stored. The rule "one open booking per Telegram user per session" holds: a friend who already
 * has one is refused.
 */

export const GIFT_MSG = {
  invalid: 'Ссылка недействительна: место уже передано, запись отменена или мастер-класс начался',
  own: 'Это ваша собственная запись: передайте ссылку другу',
  friendHasBooking: 'У вас уже есть запись на этот мастер-класс, поэтому принять место нельзя',
  cancelled: 'Отменённую запись передать нельзя',
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
export async function createSeatGift(database: Database, recordId: number, telegramId: number): Promise<SeatGiftLink> {
  return withOwnRecord(database, recordId, telegramId, async (trx, r, schedule) => {
    if (schedule.date <= nowIso()) throw new Conflict(MSG.past);
    if (r.state === 'CANCELLED') throw new Conflict(GIFT_MSG.cancelled);
    const token = crypto.randomBytes(16).toString('base64url');
    await insertSeatGift(trx, { token_hash: hash(token), record_id: r.id, created_at: nowIso() });
    return { token, expires_at: schedule.date };
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
  if (!schedule || schedule.date <= nowIso()) throw new NotFound(GIFT_MSG.invalid);
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

/** The friend accepts: the booking becomes theirs, the giver and staff are told. */
export async function acceptSeatGift(database: Database, token: string, friend: Receiver): Promise<SeatGiftView> {
  const first = await liveGift(database.db, token);
  return withScheduleLock(database, first.record.schedule_id, async (trx) => {
    const { record: r, schedule } = await liveGift(trx, token);
    if (r.telegram_id === friend.telegram_id) throw new Conflict(GIFT_MSG.own);
    if (await findOpenBooking(trx, schedule.id, friend.telegram_id, r.id))
      throw new Conflict(GIFT_MSG.friendHasBooking);
    const { consent, ...owner } = friend;
    const updated = await setRecordOwner(trx, r.id, { ...owner, ...(await consentFor(trx, consent, true)) });
    await closeSeatGifts(trx, r.id, nowIso());
    await writeAudit(trx, {
      actor: customerActor(friend.telegram_id),
      entity: 'record',
      entity_id: r.id,
      action: 'transferred',
      before: { telegram_id: r.telegram_id, name: r.name },
      after: { telegram_id: updated.telegram_id, name: updated.name },
    });
    const position = updated.state === 'QUEUED' ? await queuePosition(trx, updated) : null;
    const payload = {
      schedule: scheduleSnapshot(schedule),
      record: recordSnapshot(updated, position),
      giver_name: [r.name, r.last_name].filter(Boolean).join(' '),
      receiver_name: [updated.name, updated.last_name].filter(Boolean).join(' '),
    };
    await notifyCustomer(trx, r, { kind: 'record.given_away', payload });
    await notifyCustomer(trx, updated, { kind: 'record.received', payload });
    await notifyStaff(trx, { kind: 'staff.transferred', payload });
    return { record: updated, schedule };
  });
}
