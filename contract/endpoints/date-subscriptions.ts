import type { Endpoints } from './endpoint';

const tag = 'schedule';

/** "Сообщить о новых датах": a customer asks to be told when a workshop gets a date. */
export const dateSubscriptionsApi = {
  offers: {
    method: 'GET',
    path: '/date-subscriptions/',
    access: 'customer',
    can: 'bookings.manage',
    tag,
    summary: 'Workshops without free dates, and whether this customer asked to be told about each',
    response: 'DateOffers',
  },
  subscribe: {
    method: 'PUT',
    path: '/date-subscriptions/:id',
    access: 'customer',
    can: 'bookings.manage',
    tag,
    summary: 'Tell me about new dates of this workshop',
    errors: [403, 404],
    params: 'IdParam',
    response: 'DateSubscription',
  },
  unsubscribe: {
    method: 'DELETE',
    path: '/date-subscriptions/:id',
    access: 'customer',
    can: 'bookings.manage',
    tag,
    summary: 'Stop telling me about new dates',
    errors: [403, 404],
    params: 'IdParam',
    response: 'DateSubscription',
  },
} as const satisfies Endpoints;
