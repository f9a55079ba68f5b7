import type { Endpoints } from './endpoint';

const tag = 'schedule';

/** What a staff list's session carries, and where the rest is. */
const LIST_ROWS =
  'Each session as its card shows it: every booking with what is needed at the door, its payment badge (price and status) and what the reader may do. Where the customer heard of us, a first visit, when it was booked, its promo code and the amounts paid and due come with the booking (GET /records/{id}, GET /records/{id}/payments) or the whole session (GET /schedule/{id}).';

/** Sessions: a workshop on a date at an address. */
export const scheduleApi = {
  list: {
    method: 'GET',
    path: '/schedule/',
    access: 'staff',
    can: 'sessions.read',
    tag,
    summary: 'Upcoming sessions with their bookings, soonest first; a page (count = total)',
    description: LIST_ROWS,
    query: 'ScheduleListQuery',
    response: 'ScheduleListPage',
  },
  past: {
    method: 'GET',
    path: '/schedule/past',
    access: 'staff',
    can: 'sessions.read',
    tag,
    summary: 'Past sessions with their bookings, latest first; a page (count = total)',
    description: LIST_ROWS,
    query: 'ScheduleListQuery',
    response: 'ScheduleListPage',
  },
  /** The mini-app's first step, anonymous: free seats only, nothing about who booked. */
  public: {
    method: 'GET',
    path: '/schedule/public',
    access: 'public',
    tag,
    summary: 'Upcoming sessions, free seats only',
    description:
      'What the mini-app lists: upcoming sessions with their workshop, address and free seats, without customers. Built once and shared until a booking or schedule change (at most a second old for changes made elsewhere).',
    response: 'SchedulesOpen',
  },
  create: {
    method: 'POST',
    path: '/schedule/',
    access: 'staff',
    can: 'schedule.manage',
    tag,
    summary: 'Create a session',
    errors: [404],
    body: 'ScheduleCreate',
    response: 'SchedulePublic',
    status: 201,
  },
  series: {
    method: 'POST',
    path: '/schedule/series',
    access: 'staff',
    can: 'schedule.manage',
    tag,
    summary: 'Create a weekly series of sessions at once (all or none), at most six months ahead',
    description:
      'On the chosen weekdays (1 = Monday … 7 = Sunday) at `time` on the studio’s clock, from `start` for `weeks` weeks or until `until`. Subscribers to new dates are told once for the series.',
    errors: [404],
    body: 'ScheduleSeriesCreate',
    response: 'SchedulesPublic',
    status: 201,
  },
  get: {
    method: 'GET',
    path: '/schedule/:id',
    access: 'staff',
    can: 'sessions.read',
    tag,
    summary: 'A session with its bookings',
    params: 'IdParam',
    response: 'SchedulePublic',
  },
  update: {
    method: 'PUT',
    path: '/schedule/:id',
    access: 'staff',
    can: 'schedule.manage',
    tag,
    summary: 'Update a session; with scope=following, also the later sessions of its series',
    params: 'IdParam',
    query: 'ScheduleScopeQuery',
    body: 'ScheduleUpdate',
    response: 'SchedulePublic',
  },
  notify: {
    method: 'POST',
    path: '/schedule/notify/:id',
    access: 'staff',
    can: 'schedule.manage',
    tag,
    summary: 'Remind the participants in Telegram',
    errors: [409],
    params: 'IdParam',
    response: 'Message',
  },
  cancel: {
    method: 'POST',
    path: '/schedule/:id/cancel',
    access: 'staff',
    can: 'schedule.manage',
    tag,
    summary:
      'Cancel an upcoming session: its bookings are cancelled and customers told the reason; it stays in history',
    errors: [404, 409],
    params: 'IdParam',
    body: 'ScheduleCancel',
    response: 'SchedulePublic',
  },
  removal: {
    method: 'GET',
    path: '/schedule/:id/removal',
    access: 'staff',
    can: 'schedule.manage',
    tag,
    summary:
      'What deleting or cancelling a session would do: whether each is allowed, its open bookings, what they paid and where a cancel sends it',
    description:
      'A session with an open booking or money on any booking’s ledger cannot be deleted (DELETE answers 409); an upcoming one is cancelled instead. `money` splits what the open bookings paid as the cancel gives it back: to gift certificates, to studio balances, owed back.',
    errors: [404],
    params: 'IdParam',
    response: 'ScheduleRemoval',
  },
  delete: {
    method: 'DELETE',
    path: '/schedule/:id',
    access: 'staff',
    can: 'schedule.manage',
    tag,
    summary:
      'Delete a session nothing of anyone’s is on (no open booking, no money on a booking); with scope=following, also the later sessions of its series',
    description:
      'A session with an open booking or money on any booking’s ledger is refused (409): an upcoming one is cancelled instead (POST /schedule/{id}/cancel), a past or cancelled one stays in history. GET /schedule/{id}/removal says beforehand.',
    errors: [404, 409],
    params: 'IdParam',
    query: 'ScheduleScopeQuery',
    response: 'Message',
  },
  participantsCsv: {
    method: 'GET',
    path: '/schedule/:id/participants.csv',
    access: 'staff',
    can: 'bookings.manage',
    tag,
    summary: "The chef's list of a session as CSV (UTF-8 with BOM, ';'): ACTIVE, then the queue",
    params: 'IdParam',
  },
} as const satisfies Endpoints;
