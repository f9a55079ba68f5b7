import type { Endpoints } from './endpoint';

/** The customer's language, for the mini-app (init data carries only the Telegram app's language_code). */
export const languageApi = {
  mine: {
    method: 'GET',
    path: '/language/',
    access: 'customer',
    can: 'bookings.manage',
    tag: 'schedule',
    summary: "The customer's language: their /language choice, else their Telegram app's, else Russian",
    response: 'CustomerLanguage',
  },
} as const satisfies Endpoints;
