import { CERTIFICATE_MSG } from '../../contract';
import type { Database } from '../../db/database';
import { hitRateLimit } from '../../db/repositories/rate-limits';
import type { Actor } from '../kernel/actor';
import { TooManyRequests } from '../kernel/errors';

/*
 * Typing certificate codes is limited per Telegram user and per address, counted in the database so
 * the limit holds whichever instance answers: with 2^60 codes, guessing is hopeless at this pace, and a
 * person entering their own code a few times never meets it.
 */

export const CERTIFICATE_ATTEMPTS = { window_ms: 60 * 60_000, per_user: 20, per_address: 60 } as const;

/** Who typed a code: the Telegram customer behind the actor (staff and the public count by address only), and where from. */
export const typedBy = (actor: Actor, address: string | null) => ({
  telegramId: actor.kind === 'customer' ? actor.telegram_id : null,
  address,
});

/** Counts one attempt to use a code; TooManyRequests (429) once a window's attempts run out. */
export async function countCertificateAttempt(
  database: Database,
  who: { telegramId?: number | null; address?: string | null },
  now = Date.now(),
): Promise<void> {
  const keys: [string, number][] = [];
  if (who.telegramId) keys.push([`certificate-code|tg:${who.telegramId}`, CERTIFICATE_ATTEMPTS.per_user]);
  if (who.address) keys.push([`certificate-code|ip:${who.address}`, CERTIFICATE_ATTEMPTS.per_address]);
  let over = false;
  for (const [key, limit] of keys)
    if ((await hitRateLimit(database.db, key, CERTIFICATE_ATTEMPTS.window_ms, now)).count > limit) over = true;
  if (over) throw new TooManyRequests(CERTIFICATE_MSG.tooMany);
}
