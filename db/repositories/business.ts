import type { Executor } from '../database';
import { bool, flag, nowIso } from '../database';

export interface BusinessConnectionRow {
  id: string;
  user_id: number;
  user_chat_id: number;
  can_reply: boolean;
  is_enabled: boolean;
  updated_at: string;
}

const toRow = (r: {
  id: string;
  user_id: number;
  user_chat_id: number;
  can_reply: boolean | number;
  is_enabled: boolean | number;
  updated_at: string;
}): BusinessConnectionRow => ({
  ...r,
  user_id: Number(r.user_id),
  user_chat_id: Number(r.user_chat_id),
  can_reply: bool(r.can_reply),
  is_enabled: bool(r.is_enabled),
  updated_at: String(r.updated_at),
});

export const upsertBusinessConnection = (
  db: Executor,
  c: { id: string; user_id: number; user_chat_id: number; can_reply: boolean; is_enabled: boolean },
) => {
  const values = { ...c, can_reply: flag(c.can_reply), is_enabled: flag(c.is_enabled), updated_at: nowIso() };
  return db
    .insertInto('business_connections')
    .values(values)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        user_id: values.user_id,
        user_chat_id: values.user_chat_id,
        can_reply: values.can_reply,
        is_enabled: values.is_enabled,
        updated_at: values.updated_at,
      }),
    )
    .execute();
};

export async function getBusinessConnection(db: Executor, id: string): Promise<BusinessConnectionRow | undefined> {
  const row = await db.selectFrom('business_connections').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

/** The connection staff see in the settings: the enabled one changed last, else the last one. */
export async function latestBusinessConnection(db: Executor): Promise<BusinessConnectionRow | undefined> {
  const row = await db
    .selectFrom('business_connections')
    .selectAll()
    .orderBy('is_enabled', 'desc')
    .orderBy('updated_at', 'desc')
    .executeTakeFirst();
  return row && toRow(row);
}

/** Staff wrote in a business chat at `at`. */
export const markStaffWrote = (db: Executor, connectionId: string, chatId: number, at: string) =>
  db
    .insertInto('business_chats')
    .values({ connection_id: connectionId, chat_id: chatId, staff_wrote_at: at, answered_at: null })
    .onConflict((oc) => oc.columns(['connection_id', 'chat_id']).doUpdateSet({ staff_wrote_at: at }))
    .execute();

/**
 * Takes the chat's turn to be answered at `at`, in one statement so two instances (or two messages)
 * cannot both take it: only when the bot has not answered there since `answeredBefore` and staff have
 * not written there since `staffBefore`. True when this caller took it.
 */
export async function claimBusinessAnswer(
  db: Executor,
  connectionId: string,
  chatId: number,
  at: string,
  answeredBefore: string,
  staffBefore: string,
): Promise<boolean> {
  const inserted = await db
    .insertInto('business_chats')
    .values({ connection_id: connectionId, chat_id: chatId, staff_wrote_at: null, answered_at: at })
    .onConflict((oc) => oc.columns(['connection_id', 'chat_id']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  const updated = await db
    .updateTable('business_chats')
    .set({ answered_at: at })
    .where('connection_id', '=', connectionId)
    .where('chat_id', '=', chatId)
    .where((eb) => eb.or([eb('answered_at', 'is', null), eb('answered_at', '<=', answeredBefore)]))
    .where((eb) => eb.or([eb('staff_wrote_at', 'is', null), eb('staff_wrote_at', '<=', staffBefore)]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** The row of a business chat (tests and the quiet check). */
export const getBusinessChat = (db: Executor, connectionId: string, chatId: number) =>
  db
    .selectFrom('business_chats')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('chat_id', '=', chatId)
    .executeTakeFirst()
    .then((r) => r && { ...r, staff_wrote_at: r.staff_wrote_at && String(r.staff_wrote_at) });
