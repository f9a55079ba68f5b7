import useSWR from 'swr';
import type { UserPublic } from '../../contract/users';
import { CURRENT_USER_KEY, fetcher, isLoggedIn } from './api';

/** The current user, fetched only when a token is stored, cached as 'currentUser'. */
export function useCurrentUser() {
  return useSWR<UserPublic>(isLoggedIn() ? CURRENT_USER_KEY : null, fetcher);
}
