import useSWR, { type SWRConfiguration } from 'swr';
import { urlOf, type Args } from '../../contract/endpoints/client';
import type { Endpoint, Reply } from '../../contract/endpoints/endpoint';
import { call } from './api';

/**
 * Reads an endpoint through SWR, cached under its URL (so refetchAll refreshes it after every change):
 * `useApi(workshopsApi.list, {})`, `useApi(customersApi.get, { params: { telegram_id } })`; `null`
 * instead of the arguments fetches nothing (yet).
 */
export function useApi<E extends Endpoint>(endpoint: E, args: Args<E> | null, config?: SWRConfiguration<Reply<E>>) {
  return useSWR<Reply<E>>(args && urlOf(endpoint, args), () => call(endpoint, args!), config);
}
