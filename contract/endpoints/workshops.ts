import type { Endpoints } from './endpoint';

const tag = 'workshops';

export const workshopsApi = {
  list: {
    method: 'GET',
    path: '/workshops/',
    access: 'staff',
    can: 'catalog.manage',
    tag,
    summary: 'List workshops',
    query: 'Pagination',
    response: 'WorkshopsPublic',
  },
  create: {
    method: 'POST',
    path: '/workshops/',
    access: 'staff',
    can: 'catalog.manage',
    tag,
    summary: 'Create a workshop',
    body: 'WorkshopCreate',
    response: 'WorkshopPublic',
    status: 201,
  },
  get: {
    method: 'GET',
    path: '/workshops/:id',
    access: 'staff',
    can: 'catalog.manage',
    tag,
    summary: 'A workshop by id',
    params: 'IdParam',
    response: 'WorkshopPublic',
  },
  update: {
    method: 'PUT',
    path: '/workshops/:id',
    access: 'staff',
    can: 'catalog.manage',
    tag,
    summary: 'Update a workshop',
    params: 'IdParam',
    body: 'WorkshopUpdate',
    response: 'WorkshopPublic',
  },
  delete: {
    method: 'DELETE',
    path: '/workshops/:id',
    access: 'staff',
    can: 'catalog.manage',
    tag,
    summary: 'Delete a workshop no session uses',
    errors: [409],
    params: 'IdParam',
    response: 'Message',
  },
} as const satisfies Endpoints;
