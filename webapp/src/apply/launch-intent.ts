/**
 * Why the mini-app was opened, from its URL or Telegram's start parameter:
 * - ?gift=<token> or startapp=gift_<token>: a friend gives a seat (the gift screen);
 * - ?again=<record id>: "Записаться снова" (that workshop, the last party size and allergy);
 * - ?workshop=<id>: new dates of a workshop the customer asked about;
 * - ?cert=<code> or startapp=cert_<code>: a gift certificate's link (step 2 has its code filled in);
 * - ?buy=certificate or startapp=buy_certificate: the screen to buy a gift certificate.
 */
export interface LaunchIntent {
  gift: string | null;
  again: number | null;
  workshop: number | null;
  cert: string | null;
  buy: boolean;
}

const id = (v: string | null) => (v && /^\d{1,10}$/.test(v) ? Number(v) : null);

export function launchIntent(loc: Pick<Location, 'search' | 'hash'> = location): LaunchIntent {
  const query = new URLSearchParams(loc.search);
  const hash = new URLSearchParams(loc.hash.replace(/^#/, ''));
  const start = query.get('tgWebAppStartParam') ?? hash.get('tgWebAppStartParam') ?? '';
  const gift = query.get('gift') ?? (start.startsWith('gift_') ? start.slice('gift_'.length) : null);
  const cert = query.get('cert') ?? (start.startsWith('cert_') ? start.slice('cert_'.length) : null);
  return {
    gift: gift && /^[\w-]{10,64}$/.test(gift) ? gift : null,
    again: id(query.get('again')),
    workshop: id(query.get('workshop')),
    // The server checks the code; here only its shape (12 symbols, dashes optional).
    cert: cert && /^[A-Za-z0-9-]{12,16}$/.test(cert) ? cert.toUpperCase() : null,
    buy: query.get('buy') === 'certificate' || start === 'buy_certificate',
  };
}
