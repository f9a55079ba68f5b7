import type { Endpoints } from './endpoint';

export const statsApi = {
  dashboard: {
    method: 'GET',
    path: '/stats/',
    access: 'staff',
    can: 'stats.read',
    tag: 'stats',
    summary: 'Dashboard figures for sessions in a period (default: the last 30 days) and the next 7 days',
    query: 'StatsQuery',
    response: 'Stats',
  },
} as const satisfies Endpoints;
