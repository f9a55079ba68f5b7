import { z } from './zod';

/**
 * A message the bot prepared for the customer to share from the mini-app: `id` for Telegram's
 * shareMessage, `expiration_date` (unix time) until which it can be sent, and `url`, the same gift as
 * a link for clients without shareMessage.
 */
export const PreparedShare = z.object({
  id: z.string(),
  expiration_date: z.number().int(),
  url: z.string(),
});
export type PreparedShare = z.infer<typeof PreparedShare>;
