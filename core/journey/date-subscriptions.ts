import { nowIso, type Database, type Executor } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import {
  listSubscribedWorkshopIds,
  hasFreeDate,
  listWorkshopsWithoutFreeDates,
  subscribeToDates,
  takeDateSubscribers,
  unsubscribeFromDates,
} from '../../db/repositories/date-subscriptions';
import { getRecordSchedule } from '../../db/repositories/schedules';
import { getWorkshop } from '../../db/repositories/workshops';
import { MSG } from '../kernel/messages';
import { Conflict, NotFound } from '../kernel/errors';
import { scheduleSnapshot } from '../notify/snapshots';
import type { MessageEvent } from '../notify/publish';

/*
 * "Сообщить о новых датах": a customer asks to be told when a workshop that has no upcoming
 * session with free seats gets a new one. When staff add a session of it, every subscriber gets
 * one message (written in the same transaction) and is unsubscribed.
 */

export interface DateOffer {
  workshop_id: number;
  title: string;
  subscribed: boolean;
}

/** Workshops without free upcoming dates, and whether this customer already asked about each. */
export async function dateOffers(db: Executor, telegramId: number | null): Promise<DateOffer[]> {
  const workshops = await listWorkshopsWithoutFreeDates(db, nowIso());
  const mine = new Set(telegramId == null ? [] : await listSubscribedWorkshopIds(db, telegramId));
  return workshops.map((w) => ({ workshop_id: w.id, title: w.title, subscribed: mine.has(w.id) }));
}

/**
 * Subscribes to a workshop that is offered, and only to one: a workshop with a free upcoming date is
 * booked instead, and one never scheduled is shown nowhere, so the customer could neither see nor remove
 * such a subscription.
 */
export async function subscribe(database: Database, workshopId: number, telegramId: number): Promise<void> {
  await withWriteTransaction(database, async (trx) => {
    if (!(await getWorkshop(trx, workshopId))) throw new NotFound(MSG.workshopNotFound);
    const now = nowIso();
    if (!(await listWorkshopsWithoutFreeDates(trx, now)).some((w) => w.id === workshopId))
      throw (await hasFreeDate(trx, workshopId, now))
        ? new Conflict(MSG.hasFreeDates)
        : new NotFound(MSG.workshopNotFound);
    await subscribeToDates(trx, workshopId, telegramId, now);
  });
}

export async function unsubscribe(database: Database, workshopId: number, telegramId: number): Promise<void> {
  await withWriteTransaction(database, (trx) => unsubscribeFromDates(trx, workshopId, telegramId));
}

/** Called in the transaction that adds a session: one message to each of the workshop's subscribers, who are then forgotten. */
export async function newDatesMessages(trx: Executor, scheduleId: number): Promise<MessageEvent[]> {
  const schedule = await getRecordSchedule(trx, scheduleId);
  if (!schedule) return [];
  const subscribers = await takeDateSubscribers(trx, schedule.workshop.id);
  return subscribers.map((chatId) => ({
    type: 'message',
    chat_id: chatId,
    notification: {
      kind: 'workshop.new_dates',
      payload: {
        workshop_id: schedule.workshop.id,
        workshop_title: schedule.workshop.title,
        schedule: scheduleSnapshot(schedule),
      },
    },
  }));
}
