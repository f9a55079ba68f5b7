import type { Executor } from '../database';

export const insertSeatGift = (db: Executor, g: { token_hash: string; record_id: number; created_at: string }) =>
  db
    .insertInto('seat_gifts')
    .values({ ...g, used_at: null })
    .execute();

export const getSeatGift = (db: Executor, tokenHash: string) =>
  db.selectFrom('seat_gifts').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

/** Kills every open link of a record (used, cancelled or given away). */
export const closeSeatGifts = (db: Executor, recordId: number, at: string) =>
  db
    .updateTable('seat_gifts')
    .set({ used_at: at })
    .where('record_id', '=', recordId)
    .where('used_at', 'is', null)
    .execute();
