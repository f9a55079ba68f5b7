/**
 * Why the mini-app was opened, from its URL or Telegram's start parameter:
 * - ?gift=<token> or startapp=gift_<token>: a friend gives a seat (the gift screen);
 * - ?again=<record id>: "Записаться снова" (that workshop, the last party size and allergy);
 * - ?workshop=<id>: new dates of a workshop the customer asked about.
 */
export interface LaunchIntent {
  gift: string | null;
  again: number | null;
  workshop: number | null;
}

const id = (v: string | null) => (v && /^\d{1,10}$/.test(v) ? Number(v) : null);

export function launchIntent(loc: Pick<Location, 'search' | 'hash'> = location): LaunchIntent {
  const query = new URLSearchParams(loc.search);
  const hash = new URLSearchParams(loc.hash.replace(/^#/, ''));
  const start = query.get('tgWebAppStartParam') ?? hash.get('tgWebAppStartParam') ?? '';
  const gift = query.get('gift') ?? (start.startsWith('gift_') ? start.slice('gift_'.length) : null);
  return {
    gift: gift && /^[\w-]{10,64}$/.test(gift) ? gift : null,
    again: id(query.get('again')),
    workshop: id(query.get('workshop')),
  };
}
