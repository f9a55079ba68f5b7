import { sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * notifications.claimed_by: which worker holds a row's lease, so a worker extends (heartbeat),
 * finishes or releases only its own claims whatever the lease's time says. The partial index
 * serves the per-chat order check of a claim (is an earlier row of this chat still pending?).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('claimed_by', 'varchar(64)').execute();
  await db.schema
    .createIndex('notifications_pending_chat_idx')
    .on('notifications')
    .columns(['chat_id', 'id'])
    .where(sql<boolean>`status = 'pending'`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notifications_pending_chat_idx').execute();
  await db.schema.alterTable('notifications').dropColumn('claimed_by').execute();
}
