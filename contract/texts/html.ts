import { fullName as plainFullName } from '../format';

/** The bot writes HTML (Telegram's parse mode): every value that comes from users or staff goes through this. */
export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A workshop's title as the texts quote it. */
export const quoted = (title: string) => `«${escapeHtml(title)}»`;

/** "Имя Фамилия" from a booking's name fields, escaped. */
export const fullName = (p: { name: string; last_name: string | null }) => escapeHtml(plainFullName(p));

/** " (@login)" after a name, when there is a login. */
export const handle = (login: string | null) => (login ? ` (@${escapeHtml(login.replace(/^@/, ''))})` : '');
