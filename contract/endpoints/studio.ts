import type { Endpoints } from './endpoint';

/** The studio's own name and zone, the first-run wizard, and the login by the platform bot's one-time link. */
export const studioApi = {
  telegramLink: {
    method: 'POST',
    path: '/login/telegram-link',
    access: 'public',
    tag: 'login',
    summary: "Log in by the platform bot's one-time link: an access token for the studio's owner",
    description:
      "The token of the link the platform's Telegram bot sent the studio's owner (`/s/<slug>/welcome?token=…`). It works once, for a short time, in its own studio only: the Telegram account's staff user (created with the owner's role when there is none) gets the same token as the password login. A used, expired or unknown token is 400; attempts per client are limited (429).",
    errors: [400, 429],
    body: 'TelegramLinkLogin',
    response: 'Token',
  },
  get: {
    method: 'GET',
    path: '/studio',
    access: 'staff',
    can: 'business.read',
    tag: 'business-settings',
    summary: "The studio's name and time zone, and whether its first-run setup is done",
    description:
      "On the platform the name and zone are the studio's own; in a single-studio installation they are the server's BUSINESS_NAME and BUSINESS_TIMEZONE and `setup_done` is always true (there is nothing the wizard could set).",
    response: 'StudioProfile',
  },
  update: {
    method: 'PATCH',
    path: '/studio',
    access: 'staff',
    can: 'business.settings',
    tag: 'business-settings',
    summary: "Change the studio's name or time zone (owner)",
    description:
      "Fields left out keep their values; the studio is reopened with them right after the answer (pages opened before still show the old ones until reloaded). A single-studio installation answers 409: there they are the server's settings.",
    errors: [409],
    body: 'StudioUpdate',
    status: 204,
  },
  setupDone: {
    method: 'POST',
    path: '/studio/setup-done',
    access: 'staff',
    can: 'business.settings',
    tag: 'business-settings',
    summary: 'Mark the first-run setup as done (owner)',
    description: 'Said once the owner finished or skipped through the wizard; doing it again changes nothing.',
    status: 204,
  },
} as const satisfies Endpoints;
