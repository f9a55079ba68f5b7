import type { Endpoints } from './endpoint';

const tag = 'utils';

export const utilsApi = {
  healthCheck: {
    method: 'GET',
    path: '/utils/health-check/',
    access: 'public',
    tag,
    summary: 'Health check',
    response: 'HealthCheck',
  },
  /** What a load balancer asks before sending a request to this instance. */
  ready: {
    method: 'GET',
    path: '/utils/ready',
    access: 'public',
    tag,
    summary: 'Readiness: 503 while draining or without the database',
    errors: [503],
    response: 'HealthCheck',
  },
} as const satisfies Endpoints;
