/** The OpenAPI tags (groups in Swagger UI), each with what its operations are about; an endpoint's tag is one of these. */
export const TAGS = {
  utils: 'Health and readiness, for monitors and load balancers',
  login: 'Staff log in, password recovery and reset',
  users: 'Staff accounts and roles; the logged-in user',
  workshops: 'The catalogue of workshops, with their translations',
  address: 'Where sessions take place',
  schedule: 'Sessions (one-off and weekly series), the public schedule, date subscriptions and languages',
  records: 'Bookings: made, changed, cancelled, restored, given as a gift or shared',
  payments: 'Money of a booking: prepayment, staff payments and refunds, Касса, bank statements, unreconciled money',
  'promo-codes': 'Discount codes and their use',
  certificates: 'Gift certificates: sold, paid, spent and shared',
  fiscal: 'Fiscal receipts (Serbian e-fiscalization): settings, the PFR, each payment’s receipt, the daily report',
  settings: "A staff member's own notification settings",
  'business-settings': "The studio's settings and its Telegram Business connection",
  customers: 'Customers as staff see them: who booked, each with their bookings and credit',
  'personal data': "A customer's personal data: the privacy text, what is stored, erasure",
  audit: 'The audit log (Журнал) of staff and system actions',
  stats: 'Numbers for the dashboard (Главная)',
} as const;

export type Tag = keyof typeof TAGS;
