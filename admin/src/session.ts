import useSWR from 'swr';
import type { Capability } from '../../contract/roles';
import type { UserMe } from '../../contract/users';
import { usersApi } from '../../contract/endpoints/users';
import { CURRENT_USER_KEY, CURRENT_USER_STORE, call, isLoggedIn } from './api';

function storedUser(): UserMe | undefined {
  try {
    const text = localStorage.getItem(CURRENT_USER_STORE);
    return text ? (JSON.parse(text) as UserMe) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The current user and what their role may do (`capabilities`), fetched only when a token is stored, cached as 'currentUser'. The copy kept from the
 * last read is shown at once and replaced when the server answers, so the pages start their own requests
 * without waiting a round trip for the account.
 */
export function useCurrentUser() {
  return useSWR(
    isLoggedIn() ? CURRENT_USER_KEY : null,
    async () => {
      const user = await call(usersApi.me);
      localStorage.setItem(CURRENT_USER_STORE, JSON.stringify(user));
      return user;
    },
    { fallbackData: storedUser() },
  );
}

/**
 * What the signed-in staff member may do, from GET /users/me: `known` is false until an account with
 * capabilities has been read (a copy kept by an older version has none).
 */
export function useCan(): { known: boolean; can: (capability: Capability) => boolean } {
  const capabilities = useCurrentUser().data?.capabilities;
  return { known: Array.isArray(capabilities), can: (c) => capabilities?.includes(c) ?? false };
}
