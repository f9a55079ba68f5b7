import type { Endpoints } from './endpoint';

const tag = 'settings';

/** A staff member's own notification settings. */
export const settingsApi = {
  get: {
    method: 'GET',
    path: '/settings/',
    access: 'staff',
    can: 'account',
    tag,
    summary: 'Own notification settings',
    response: 'Settings',
  },
  save: {
    method: 'POST',
    path: '/settings/',
    access: 'staff',
    can: 'account',
    tag,
    summary: 'Save own notification settings',
    body: 'Settings',
    response: 'Settings',
  },
} as const satisfies Endpoints;
