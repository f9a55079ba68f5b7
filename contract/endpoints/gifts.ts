import type { Endpoints } from './endpoint';

const tag = 'records';

/** "Передать место другу": the friend's side of a seat gift. */
export const giftsApi = {
  view: {
    method: 'GET',
    path: '/gifts/:token',
    access: 'customer',
    can: 'bookings.manage',
    tag,
    summary: 'The booking a friend is giving, before accepting',
    errors: [404],
    params: 'GiftTokenParam',
    response: 'SeatGiftView',
  },
  accept: {
    method: 'POST',
    path: '/gifts/:token/accept',
    access: 'customer',
    can: 'bookings.manage',
    tag,
    summary: 'Accept a seat given by a friend: the booking becomes yours',
    errors: [403, 404, 409],
    params: 'GiftTokenParam',
    body: 'SeatGiftAccept',
    response: 'RecordView',
  },
} as const satisfies Endpoints;
