import type { Endpoints } from './endpoint';

/** Telegram users who booked, as staff see them; a superuser answers their access and erasure requests. */
export const customersApi = {
  list: {
    method: 'GET',
    path: '/customers/',
    access: 'staff',
    can: 'customers.manage',
    tag: 'customers',
    summary: 'Telegram users who booked, newest first, searchable by name or login',
    query: 'CustomersQuery',
    response: 'CustomersPage',
  },
  get: {
    method: 'GET',
    path: '/customers/:telegram_id',
    access: 'staff',
    can: 'customers.manage',
    tag: 'customers',
    summary: 'A customer with every booking, latest session first',
    params: 'TelegramIdParam',
    response: 'CustomerDetail',
  },
  note: {
    method: 'PUT',
    path: '/customers/:telegram_id/note',
    access: 'staff',
    can: 'customers.manage',
    tag: 'customers',
    summary:
      'Staff’s note about a customer (up to 500 characters; empty removes it), shown wherever their bookings are',
    errors: [404],
    params: 'TelegramIdParam',
    body: 'CustomerNoteUpdate',
    response: 'CustomerNote',
  },
  data: {
    method: 'GET',
    path: '/customers/:telegram_id/data',
    access: 'staff',
    can: 'customers.data',
    tag: 'personal data',
    summary: 'Everything stored about a Telegram user, for their access request',
    params: 'TelegramIdParam',
    response: 'PersonalDataExport',
  },
  erase: {
    method: 'DELETE',
    path: '/customers/:telegram_id/data',
    access: 'staff',
    can: 'customers.data',
    tag: 'personal data',
    summary: 'Erase a Telegram user’s personal data at their request',
    params: 'TelegramIdParam',
    response: 'ForgetResult',
  },
} as const satisfies Endpoints;
