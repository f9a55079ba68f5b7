import type { Endpoints } from './endpoint';

const tag = 'promo-codes';

/**
 * Promo codes. Managing them is the owner's (a studio's prices are a business setting); the price
 * quote is a customer's (or staff's): what a booking would cost with a code, before booking.
 */
export const promoCodesApi = {
  list: {
    method: 'GET',
    path: '/promo-codes/',
    access: 'staff',
    can: 'promo.manage',
    tag,
    summary: 'Promo codes, newest first, with their uses',
    response: 'PromoCodesPublic',
  },
  create: {
    method: 'POST',
    path: '/promo-codes/',
    access: 'staff',
    can: 'promo.manage',
    tag,
    summary: 'Create a promo code (codes are unique without regard to case)',
    errors: [409],
    body: 'PromoCodeCreate',
    response: 'PromoCodePublic',
    status: 201,
  },
  update: {
    method: 'PATCH',
    path: '/promo-codes/:id',
    access: 'staff',
    can: 'promo.manage',
    tag,
    summary: 'Change a promo code or switch it off (is_active: false)',
    errors: [404, 409],
    params: 'IdParam',
    body: 'PromoCodeUpdate',
    response: 'PromoCodePublic',
  },
  quote: {
    method: 'POST',
    path: '/records/quote',
    access: 'customer',
    can: 'bookings.manage',
    tag,
    summary: 'What a booking would cost: price, promo discount, total',
    description:
      'A promo code that cannot be used by this customer for this session is refused with 409 and the reason in Russian (unknown, not yet or no longer valid, another workshop, used up, already used, first visit only).',
    errors: [404, 409],
    body: 'PriceQuoteRequest',
    response: 'PriceQuote',
  },
} as const satisfies Endpoints;
