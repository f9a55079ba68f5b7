import { api } from './api';
import { MESSAGES, TITLES, refetchAll, toastError, toastSuccess } from './notify';

/**
 * Every change the admin makes: a success toast, or the server's detail in an error toast under
 * `errorTitle`; the lists are fetched again either way. True when it worked.
 */
export async function runChange(
  call: () => Promise<unknown>,
  success: string,
  errorTitle: string = TITLES.general,
): Promise<boolean> {
  try {
    await call();
    toastSuccess(success);
    return true;
  } catch (err) {
    toastError(errorTitle, err);
    return false;
  } finally {
    void refetchAll();
  }
}

/** Delete something (after the confirmation dialog). */
export const deleteObject = (path: string) => runChange(() => api.delete(path), MESSAGES.deleted, TITLES.deleteFailed);
