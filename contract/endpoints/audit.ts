import type { Endpoints } from './endpoint';

export const auditApi = {
  list: {
    method: 'GET',
    path: '/audit/',
    access: 'staff',
    can: 'audit.read',
    tag: 'audit',
    summary: 'The audit log, newest first, by entity and period',
    query: 'AuditQuery',
    response: 'AuditPage',
  },
} as const satisfies Endpoints;
