import crypto from 'node:crypto';

/**
 * The timing-safe check of Telegram's X-Telegram-Bot-Api-Secret-Token header against the webhook's
 * secret. Its own module, without grammY: the server checks webhook requests with it before the bot
 * has loaded (server/main.ts).
 */
export function webhookSecretCheck(webhookSecret: string): (header: unknown) => boolean {
  const secret = Buffer.from(webhookSecret);
  return (header) => {
    if (typeof header !== 'string') return false;
    const given = Buffer.from(header);
    return given.length === secret.length && crypto.timingSafeEqual(given, secret);
  };
}
