import { afterAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../db/database';
import { withWriteTransaction } from '../../db/lock';
import { migrateToLatest } from '../../db/migrate';
import { getBusinessSettings, updateBusinessSettings } from '../../core/kernel/settings';
import { getFiscalSettings, writeFiscalSettings } from '../../core/fiscal/settings';
import { DEFAULT_BUSINESS_SETTINGS } from '../../contract/business-settings';
import { freshDatabaseUrl } from '../helpers/db';

// The settings are read once per change of them and process: what another instance (here another
// connection pool on the same database), another database of the process or a transaction does must
// still be read at once.
const opened: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of opened.reverse()) await close();
});

async function database(url?: string): Promise<{ url: string; database: Database }> {
  const fresh = url ? null : await freshDatabaseUrl();
  const database = createDb(url ?? fresh!.url);
  if (fresh) await migrateToLatest(database.db);
  opened.push(async () => {
    await database.close();
    await fresh?.drop();
  });
  return { url: url ?? fresh!.url, database };
}

describe('the studio settings, read once per change', () => {
  it('reads at once what another instance saved on the same database', async () => {
    const a = await database();
    const b = await database(a.url);
    expect((await getBusinessSettings(a.database.db)).contact).toBe('');
    await updateBusinessSettings(b.database.db, { contact: '+381 60 123', prepayment: 'full' });
    const seen = await getBusinessSettings(a.database.db);
    expect(seen.contact).toBe('+381 60 123');
    expect(seen.prepayment).toBe('full');
    await writeFiscalSettings(b.database.db, { fiscal_cashier: 'Ана' });
    expect((await getFiscalSettings(a.database.db)).fiscal_cashier).toBe('Ана');
    // And back, as the first instance sees it.
    await updateBusinessSettings(a.database.db, { contact: 'Студия' });
    expect((await getBusinessSettings(b.database.db)).contact).toBe('Студия');
  });

  it('keeps the settings of two databases of one process apart', async () => {
    const one = await database();
    const two = await database();
    await updateBusinessSettings(one.database.db, { contact: 'первая' });
    expect((await getBusinessSettings(two.database.db)).contact).toBe('');
    expect((await getBusinessSettings(one.database.db)).contact).toBe('первая');
    await updateBusinessSettings(two.database.db, { contact: 'вторая' });
    expect((await getBusinessSettings(one.database.db)).contact).toBe('первая');
    expect((await getBusinessSettings(two.database.db)).contact).toBe('вторая');
  });

  it('reads a change inside its transaction, and not once the transaction rolled back', async () => {
    const { database: d } = await database();
    await expect(
      withWriteTransaction(d, async (trx) => {
        expect((await getBusinessSettings(trx)).refund_to).toBe('credit');
        await updateBusinessSettings(trx, { refund_to: 'refund' });
        expect((await getBusinessSettings(trx)).refund_to).toBe('refund');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await getBusinessSettings(d.db)).refund_to).toBe('credit');
  });

  it('gives each reader its own copy', async () => {
    const { database: d } = await database();
    const first = await getBusinessSettings(d.db);
    first.reminder_hours.push(99);
    first.contact = 'изменено читателем';
    const next = await getBusinessSettings(d.db);
    expect(next.reminder_hours).toEqual(DEFAULT_BUSINESS_SETTINGS.reminder_hours);
    expect(next.contact).toBe('');
  });
});
