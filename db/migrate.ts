import type { DB } from './schema';
import {
  Migrator,
  NO_MIGRATIONS,
  sql,
  type DatabaseIntrospector,
  type Kysely,
  type Migration,
  type MigrationProvider,
} from 'kysely';
import * as m0001 from './migrations/20261121_0001_initial';
import * as m0100 from './migrations/20261122_0100_sessions_and_login_failures';
import * as m0200 from './migrations/20261122_0200_outbox_claims';
import * as m0300 from './migrations/20261122_0300_audit_log';
import * as m0301 from './migrations/20261122_0301_attendance';
import * as m0302 from './migrations/20261122_0302_list_indexes';
import * as m0400 from './migrations/20261122_0400_business_settings';
import * as m0401 from './migrations/20261122_0401_customer_journey';
import * as m0500 from './migrations/20261122_0500_personal_data';
import * as m20261123_0646 from './migrations/20261123_0646_rate_limits_and_seen_updates';
import * as m20261123_0704 from './migrations/20261123_0704_money';
import * as m20261123_0739 from './migrations/20261123_0739_cancelled_sessions';
import * as m20261123_0746 from './migrations/20261123_0746_languages_and_business';
import * as m20261123_0753 from './migrations/20261123_0753_customer_notes';
import * as m20261123_0805 from './migrations/20261123_0805_schedule_series';
import * as m20261123_0823 from './migrations/20261123_0823_staff_roles';
import * as m20261123_1057 from './migrations/20261123_1057_min_people';
import * as m20261123_1059 from './migrations/20261123_1059_certificates';
import * as m20261123_1106 from './migrations/20261123_1106_promo_codes';
import * as m20261123_1128 from './migrations/20261123_1128_workshop_translations';
import * as m20261126_2308 from './migrations/20261126_2308_certificate_places';
import * as m20261128_0100 from './migrations/20261128_0100_update_handling';
import * as m20261128_0200 from './migrations/20261128_0200_price_override_per_person';
import * as m20261128_0210 from './migrations/20261128_0210_promo_redeemer';
import * as m20261128_0220 from './migrations/20261128_0220_owed_refunds';
import * as m20261128_0230 from './migrations/20261128_0230_bank_statement_lines';
import * as m20261128_0240 from './migrations/20261128_0240_unreconciled_money';
import * as m20261128_0250 from './migrations/20261128_0250_staff_booking_credit';
import * as m20261128_0260 from './migrations/20261128_0260_payment_names';
import * as m20261128_0270 from './migrations/20261128_0270_certificate_invoice_token';
import * as m20261201_2115 from './migrations/20261201_2115_fiscal_receipts';
import * as m20261201_2123 from './migrations/20261201_2123_receipt_consents';
import * as m20261201_2125 from './migrations/20261201_2125_fiscal_advances';
import * as m20261201_2143 from './migrations/20261201_2143_fiscal_prints';
import * as m20261201_2223 from './migrations/20261201_2223_settings_version';
import * as m20261201_2257 from './migrations/20261201_2257_rate_limits_unlogged';
import * as m20261202_0445 from './migrations/20261202_0445_seats_covering_index';

/**
 * Every migration, statically imported so they run the same under tsx, vitest and a bundle.
 * A new migration is named `YYYYMMDD_HHMM_name.ts` with the UTC time it was written
 * (`date -u +%Y%m%d_%H%M`), gets one line here, and is never edited once committed.
 */
export const migrations: Record<string, Migration> = {
  '20261121_0001_initial': m0001,
  '20261122_0100_sessions_and_login_failures': m0100,
  '20261122_0200_outbox_claims': m0200,
  '20261122_0300_audit_log': m0300,
  '20261122_0301_attendance': m0301,
  '20261122_0302_list_indexes': m0302,
  '20261122_0400_business_settings': m0400,
  '20261122_0401_customer_journey': m0401,
  '20261122_0500_personal_data': m0500,
  '20261123_0646_rate_limits_and_seen_updates': m20261123_0646,
  '20261123_0704_money': m20261123_0704,
  '20261123_0739_cancelled_sessions': m20261123_0739,
  '20261123_0746_languages_and_business': m20261123_0746,
  '20261123_0753_customer_notes': m20261123_0753,
  '20261123_0805_schedule_series': m20261123_0805,
  '20261123_0823_staff_roles': m20261123_0823,
  '20261123_1057_min_people': m20261123_1057,
  '20261123_1059_certificates': m20261123_1059,
  '20261123_1106_promo_codes': m20261123_1106,
  '20261123_1128_workshop_translations': m20261123_1128,
  '20261126_2308_certificate_places': m20261126_2308,
  '20261128_0100_update_handling': m20261128_0100,
  '20261128_0200_price_override_per_person': m20261128_0200,
  '20261128_0210_promo_redeemer': m20261128_0210,
  '20261128_0220_owed_refunds': m20261128_0220,
  '20261128_0230_bank_statement_lines': m20261128_0230,
  '20261128_0240_unreconciled_money': m20261128_0240,
  '20261128_0250_staff_booking_credit': m20261128_0250,
  '20261128_0260_payment_names': m20261128_0260,
  '20261128_0270_certificate_invoice_token': m20261128_0270,
  '20261201_2115_fiscal_receipts': m20261201_2115,
  '20261201_2123_receipt_consents': m20261201_2123,
  '20261201_2125_fiscal_advances': m20261201_2125,
  '20261201_2143_fiscal_prints': m20261201_2143,
  '20261201_2223_settings_version': m20261201_2223,
  '20261201_2257_rate_limits_unlogged': m20261201_2257,
  '20261202_0445_seats_covering_index': m20261202_0445,
};

/** The newest migration: a database whose last is older is migrated before it is served. */
export const LATEST_MIGRATION = Object.keys(migrations).sort().at(-1)!;

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Runs whatever has not run yet, even when its name sorts before a migration that already ran: the
 * 0100–0500 files were named per feature, not in the order written, so a database migrated at an
 * intermediate commit has later names done and earlier ones pending.
 */
const migrator = (db: Kysely<DB>, schema?: string) =>
  new Migrator({
    db: schema ? lookingIn(db, schema) : db,
    provider,
    allowUnorderedMigrations: true,
    ...(schema && { migrationTableSchema: schema }),
  });

/**
 * `db` whose introspection sees one schema only. Kysely's Migrator finds its own two tables by listing
 * every table, with its columns, of every schema: with a platform's thousand studios each a schema,
 * migrating one studio read all of theirs, and creating studios slowed with each one made.
 */
export function lookingIn<T>(db: Kysely<T>, schema: string): Kysely<T> {
  const introspection: DatabaseIntrospector = {
    getSchemas: async () =>
      (await sql<{ name: string }>`select nspname as name from pg_namespace where nspname = ${schema}`.execute(db))
        .rows,
    getTables: async () =>
      (
        await sql<{ name: string; isView: boolean }>`
          select c.relname as name, c.relkind = 'v' as "isView" from pg_class c
            join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v')`.execute(db)
      ).rows.map((t) => ({ ...t, schema, columns: [] })),
    getMetadata: async () => ({ tables: await introspection.getTables() }),
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, prop, target);
      // Kysely's own fields are private (#props): its methods must run on the real object.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** `schema`: a platform studio's PostgreSQL schema, which also holds its record of migrations run. */
export async function migrateToLatest(db: Kysely<DB>, schema?: string): Promise<void> {
  const { error, results } = await migrator(db, schema).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

/** Undoes every migration, in the reverse of the order they ran (each one's down() is tested this way). */
export async function migrateDown(db: Kysely<DB>): Promise<void> {
  const { error, results } = await migrator(db).migrateTo(NO_MIGRATIONS);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} down failed: ${String(error)}`);
}
