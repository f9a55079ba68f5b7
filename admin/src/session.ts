import useSWR from 'swr';
import { usersApi } from '../../contract/endpoints/users';
import { CURRENT_USER_KEY, call, isLoggedIn } from './api';

/** The current user, fetched only when a token is stored, cached as 'currentUser'. */
export function useCurrentUser() {
  return useSWR(isLoggedIn() ? CURRENT_USER_KEY : null, () => call(usersApi.me));
}
