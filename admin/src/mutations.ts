import type { ArgList } from '../../contract/endpoints/client';
import type { Endpoint } from '../../contract/endpoints/endpoint';
import { call } from './api';
import { MESSAGES, TITLES, refetchAll, toastError, toastSuccess } from './notify';

/**
 * Every change the admin makes: a success toast (its text may name what was made), or the server's detail in an error toast under
 * `errorTitle`; the lists are fetched again either way. True when it worked.
 */
export async function runChange<T>(
  call: () => Promise<T>,
  success: string | ((result: T) => string),
  errorTitle: string = TITLES.general,
): Promise<boolean> {
  try {
    const result = await call();
    toastSuccess(typeof success === 'string' ? success : success(result));
    return true;
  } catch (err) {
    toastError(errorTitle, err);
    return false;
  } finally {
    void refetchAll();
  }
}

/** Delete something (after the confirmation dialog): `deleteObject(workshopsApi.delete, { params: { id } })`. */
export const deleteObject = <E extends Endpoint & { method: 'DELETE' }>(endpoint: E, ...args: ArgList<E>) =>
  runChange(() => call(endpoint, ...args), MESSAGES.deleted, TITLES.deleteFailed);
