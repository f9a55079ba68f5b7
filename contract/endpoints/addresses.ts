import type { Endpoints } from './endpoint';

const tag = 'address';

export const addressesApi = {
  list: {
    method: 'GET',
    path: '/address/',
    access: 'staff',
    can: 'catalog.manage',
    tag,
    summary: 'List addresses',
    query: 'Pagination',
    response: 'AddressesPublic',
  },
  create: {
    method: 'POST',
    path: '/address/',
    access: 'staff',
    can: 'catalog.manage',
    tag,
    summary: 'Create an address',
    body: 'AddressCreate',
    response: 'AddressPublic',
    status: 201,
  },
  get: {
    method: 'GET',
    path: '/address/:id',
    access: 'staff',
    can: 'catalog.manage',
    tag,
    summary: 'An address by id',
    params: 'IdParam',
    response: 'AddressPublic',
  },
  update: {
    method: 'PUT',
    path: '/address/:id',
    access: 'staff',
    can: 'catalog.manage',
    tag,
    summary: 'Update an address',
    params: 'IdParam',
    body: 'AddressUpdate',
    response: 'AddressPublic',
  },
  delete: {
    method: 'DELETE',
    path: '/address/:id',
    access: 'staff',
    can: 'catalog.manage',
    tag,
    summary: 'Delete an address no session uses',
    errors: [409],
    params: 'IdParam',
    response: 'Message',
  },
} as const satisfies Endpoints;
