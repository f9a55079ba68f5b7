import type { Endpoints } from './endpoint';

const tag = 'business-settings';

/** The studio's settings: one set for the whole studio. */
export const businessSettingsApi = {
  get: {
    method: 'GET',
    path: '/business-settings/',
    access: 'staff',
    can: 'business.read',
    tag,
    summary: "The studio's settings (any staff member)",
    response: 'BusinessSettings',
  },
  update: {
    method: 'PUT',
    path: '/business-settings/',
    access: 'staff',
    can: 'business.settings',
    tag,
    summary: "Change the studio's settings (superuser); fields left out keep their values",
    body: 'BusinessSettingsUpdate',
    response: 'BusinessSettings',
  },
  telegramBusiness: {
    method: 'GET',
    path: '/business-settings/telegram-business',
    access: 'staff',
    can: 'business.read',
    tag,
    summary: "Whether the studio's Telegram account has the bot connected (Telegram Business)",
    response: 'TelegramBusinessStatus',
  },
} as const satisfies Endpoints;
