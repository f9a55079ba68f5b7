import type { Executor } from '../../db/database';
import {
  claimBusinessAnswer,
  getBusinessConnection,
  latestBusinessConnection,
  markStaffWrote,
  upsertBusinessConnection,
} from '../../db/repositories/business';
import { getUserByTelegramId } from '../../db/repositories/users';
import type { TelegramBusinessStatus } from '../../contract/business-settings';
import { can } from '../../contract/roles';
import { staffRole } from '../kernel/actor';
import { getBusinessSettings } from '../kernel/settings';

/** What the bot keeps of Telegram's BusinessConnection: rights.can_reply (Bot API 9.0+), else the older can_reply. */
export interface BusinessConnectionInput {
  id: string;
  user: { id: number };
  user_chat_id: number;
  is_enabled: boolean;
  can_reply?: boolean;
  rights?: { can_reply?: boolean };
}

/**
 * The studio's own Telegram account: the account of an active owner or manager linked to the bot. Anyone
 * can connect a bot to their Business account; the bot must not answer a stranger's customers in the
 * studio's name.
 */
async function studioAccount(db: Executor, telegramId: number) {
  const user = await getUserByTelegramId(db, telegramId);
  return user && user.is_active && can(staffRole(user), 'business.read') ? user : null;
}

/**
 * A connection made, changed or removed (is_enabled: false) in Telegram Business: kept when it is the
 * studio's own account; false (and nothing kept) for anyone else's.
 */
export async function saveBusinessConnection(db: Executor, c: BusinessConnectionInput): Promise<boolean> {
  if (!(await studioAccount(db, c.user.id))) return false;
  await upsertBusinessConnection(db, {
    id: c.id,
    user_id: c.user.id,
    user_chat_id: c.user_chat_id,
    can_reply: c.rights?.can_reply ?? c.can_reply ?? false,
    is_enabled: c.is_enabled,
  });
  return true;
}

export interface BusinessMessageInput {
  connectionId: string;
  /** The private chat between the business account and the customer. */
  chatId: number;
  fromId: number;
  /** Sent by a bot on the account's behalf (ours or another): neither staff nor a customer. */
  byBot: boolean;
  now: Date;
  quietMinutes: number;
}

/**
 * Whether the bot answers a message in one of the studio's business chats. The account's owner writing
 * there is staff writing: it keeps the bot quiet in that chat for `quietMinutes`. A customer's message
 * is answered only while the connection is enabled with the right to reply, the studio has the
 * auto-answer on, staff have been quiet there, and the bot has not answered there within the
 * studio's `business_reply_hours` — decided in one statement, so each window gets one answer.
 */
export async function shouldAnswerBusinessMessage(db: Executor, m: BusinessMessageInput): Promise<boolean> {
  if (m.byBot) return false;
  const connection = await getBusinessConnection(db, m.connectionId);
  if (!connection) return false;
  const at = m.now.toISOString();
  if (m.fromId === connection.user_id) {
    await markStaffWrote(db, m.connectionId, m.chatId, at);
    return false;
  }
  if (!connection.is_enabled || !connection.can_reply) return false;
  // The account may have been unlinked from the staff (or its staff member deactivated) since it connected.
  if (!(await studioAccount(db, connection.user_id))) return false;
  const settings = await getBusinessSettings(db);
  if (!settings.business_auto_reply) return false;
  const ago = (ms: number) => new Date(m.now.getTime() - ms).toISOString();
  return claimBusinessAnswer(
    db,
    m.connectionId,
    m.chatId,
    at,
    ago(settings.business_reply_hours * 3_600_000),
    ago(m.quietMinutes * 60_000),
  );
}

/** What Settings → Бизнес shows: the enabled connection (or the last one), whose account it is, and whether it may reply. */
export async function telegramBusinessStatus(db: Executor): Promise<TelegramBusinessStatus> {
  const c = await latestBusinessConnection(db);
  const owner = c ? await getUserByTelegramId(db, c.user_id) : undefined;
  return {
    connected: Boolean(c?.is_enabled),
    can_reply: Boolean(c?.is_enabled && c.can_reply),
    changed_at: c ? new Date(c.updated_at).toISOString() : null,
    account: owner ? owner.full_name || owner.email : null,
  };
}
