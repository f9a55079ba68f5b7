import type { Endpoints } from './endpoint';

const tag = 'personal data';

/** The privacy text, and a Telegram customer's own data: export and erasure (staff get 403 there). */
export const personalDataApi = {
  privacy: {
    method: 'GET',
    path: '/privacy',
    access: 'public',
    tag,
    summary: 'The privacy text the booking consent refers to',
    description: 'The text a customer agrees to when booking, with its version.',
    response: 'PrivacyPublic',
  },
  myData: {
    method: 'GET',
    path: '/me/data',
    access: 'customer',
    can: 'bookings.manage',
    tag,
    summary: 'Everything stored about the Telegram user',
    errors: [403],
    response: 'PersonalDataExport',
  },
  forgetMe: {
    method: 'DELETE',
    path: '/me/data',
    access: 'customer',
    can: 'bookings.manage',
    tag,
    summary: 'Cancel upcoming bookings and erase the Telegram user’s personal data',
    errors: [403],
    response: 'ForgetResult',
  },
} as const satisfies Endpoints;
