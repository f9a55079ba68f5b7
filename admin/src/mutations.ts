import { api } from './api';
import { MESSAGES, TITLES, refetchAll, toastError, toastSuccess } from './notify';

/** Delete something, tell the user how it went, refetch the lists. */
export async function deleteObject(path: string): Promise<boolean> {
  try {
    await api.delete(path);
    toastSuccess(MESSAGES.deleted);
    return true;
  } catch (err) {
    toastError(TITLES.deleteFailed, err);
    return false;
  } finally {
    void refetchAll();
  }
}
