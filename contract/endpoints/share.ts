import type { Endpoints } from './endpoint';

const tag = 'records';

/** Giving from the mini-app: the bot prepares the message, the customer picks the friend's chat in Telegram. */
export const shareApi = {
  seatGift: {
    method: 'POST',
    path: '/records/:id/gift/share',
    access: 'customer',
    can: 'bookings.manage',
    tag,
    summary: 'A one-time seat-gift link, prepared as a message the customer shares from Telegram (shareMessage)',
    errors: [403, 404, 409, 503],
    params: 'IdParam',
    response: 'PreparedShare',
  },
  certificate: {
    method: 'POST',
    path: '/me/certificates/:id/share',
    access: 'customer',
    can: 'bookings.manage',
    tag: 'certificates',
    summary: "The customer's paid certificate, prepared as a message they share from Telegram (shareMessage)",
    errors: [403, 404, 409, 503],
    params: 'IdParam',
    response: 'PreparedShare',
  },
} as const satisfies Endpoints;
