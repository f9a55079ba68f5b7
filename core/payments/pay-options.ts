import type { BusinessSettings, PayOptions } from '../../contract';
import type { Executor } from '../../db/database';
import { getBusinessSettings } from '../kernel/settings';
import { ipsEnabled } from './ips-qr';

/** How a customer can pay: by Telegram invoice (when the provider token is set), by IPS QR transfer, else at the studio. */
export async function payOptions(
  db: Executor,
  telegramInvoices: boolean,
  /** The settings, when the caller has read them already. */
  settings?: BusinessSettings,
): Promise<PayOptions> {
  const s = settings ?? (await getBusinessSettings(db));
  const ips = ipsEnabled(s);
  return {
    telegram: telegramInvoices,
    ips_qr: ips,
    bank_account: ips ? s.bank_account : null,
    bank_recipient: ips ? s.bank_recipient : null,
  };
}
