import type { Endpoints } from './endpoint';

const tag = 'utils';

export const utilsApi = {
  healthCheck: {
    method: 'GET',
    path: '/utils/health-check/',
    access: 'public',
    tag,
    summary: 'Health check',
    description: 'Answers `true` while the process runs; it does not ask the database (GET /utils/ready does).',
    response: 'HealthCheck',
  },
  /** What a load balancer asks before sending a request to this instance. */
  ready: {
    method: 'GET',
    path: '/utils/ready',
    access: 'public',
    tag,
    summary: 'Readiness: 503 while draining or without the database',
    description:
      'What a load balancer asks before sending this instance a request: 200 when the database answers, 503 while the instance drains on SIGTERM or the database does not answer.',
    errors: [503],
    response: 'HealthCheck',
  },
} as const satisfies Endpoints;
