import type { CertificateKind, CertificateStatus } from '../../contract';
import { LOCALES, type Language } from '../../contract/language';
import { apiTexts } from '../../core/language/api-texts';

/*
 * The certificate's card as one HTML page with its own styles (no script: the CSP stays strict): on
 * screen a card with the amount (or the places, on any workshop), recipient, greeting, code, expiry, how
 * to use it and the bot's link (also as a QR code), in print the same card alone on an A5 sheet. It is
 * written in the reader's language (the customer's catalogue); the names and greeting as staff typed them.
 */

export interface CardData {
  code: string;
  kind: CertificateKind;
  amount: number;
  /** A places certificate's places as sold (its balance is places too). */
  places: number | null;
  balance: number;
  status: CertificateStatus;
  recipient_name: string | null;
  greeting: string | null;
  expires_at: string;
  businessName: string;
  timezone: string;
  botLink: string | null;
  language: Language;
}

const e = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/**
 * The lang attribute of a text staff typed (names, greeting, the studio's name) on a page in another
 * language: Cyrillic is the studio's Russian, so it keeps Russian letter forms (a Serbian page would draw
 * italic Cyrillic the Serbian way).
 */
const typedLang = (text: string, page: Language) => (page !== 'ru' && /[а-яё]/i.test(text) ? ' lang="ru"' : '');

async function qrSvg(text: string, label: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 0,
    color: { dark: '#3b2a20', light: '#0000' },
  });
  return svg.replace('<svg ', `<svg role="img" aria-label="${e(label)}" `);
}

const STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:16px;
  padding:24px 12px;background:#f4ece4;color:#3b2a20;font:16px/1.5 Georgia,'Times New Roman',serif}
.card{width:min(100%,720px);background:#fffdf9;border-radius:18px;padding:28px clamp(18px,5vw,44px);
  box-shadow:0 12px 40px rgba(59,42,32,.18);border:2px solid #c8893f;outline:6px solid #fffdf9;outline-offset:-14px;position:relative}
.brand{margin:0;font:600 14px/1.3 system-ui,-apple-system,'Segoe UI',sans-serif;letter-spacing:.18em;text-transform:uppercase;color:#8a5a2b}
h1{margin:6px 0 18px;font-size:clamp(26px,6vw,38px);font-weight:normal;line-height:1.15}
.amount{margin:0;font-size:clamp(40px,11vw,64px);line-height:1;color:#a34a28;font-weight:bold}
.amount .on{font-size:.45em;font-weight:normal;color:#3b2a20}
.any{margin:6px 0 0;font-size:clamp(20px,5vw,26px)}
.for{margin:16px 0 0;font-size:20px}
.greeting{margin:10px 0 0;font-style:italic;font-size:19px;white-space:pre-line}
.meta{display:flex;flex-wrap:wrap;gap:18px 32px;align-items:flex-end;justify-content:space-between;margin-top:24px;padding-top:18px;border-top:1px dashed #c8893f}
.label{display:block;font:600 12px/1.3 system-ui,-apple-system,'Segoe UI',sans-serif;letter-spacing:.12em;text-transform:uppercase;color:#6b4a2f}
.code{font:bold clamp(22px,5.5vw,30px)/1.2 'Courier New',ui-monospace,monospace;letter-spacing:.08em}
.how{margin:20px 0 0;padding-left:22px;font:15px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif}
.how li+li{margin-top:4px}
.qr{display:flex;gap:14px;align-items:center;font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif}
.qr svg{width:96px;height:96px;flex:none}
a{color:#8a3b1c}
.state{margin:14px 0 0;padding:8px 12px;border-radius:8px;background:#fbe3dc;color:#7a1f0c;font:600 15px/1.4 system-ui,sans-serif}
.hint{margin:0;font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;color:#5e4634}
@media print{
  @page{size:A5 landscape;margin:8mm}
  body{background:#fff;min-height:0;padding:0;display:block}
  .card{width:100%;box-shadow:none;break-inside:avoid;-webkit-print-color-adjust:exact;print-color-adjust:exact}
  .hint{display:none}
  a{color:inherit;text-decoration:none}
}`;

export async function certificatePage(c: CardData): Promise<string> {
  const T = apiTexts(c.language);
  const K = T.card;
  const usable = c.status === 'active';
  const byPlaces = c.kind === 'places' && c.places !== null;
  const howTo = [K.openBot, K.enterCode, byPlaces ? K.paysPlaces : K.paysAmount];
  // A places certificate shows its places, never a price: its value is the workshop's price when used.
  const value = byPlaces
    ? `<p class="amount"><span class="on">${e(K.placesOn)}</span> ${e(K.placesCount(c.places!))}</p>\n  <p class="any">${e(K.anyWorkshop)}</p>`
    : `<p class="amount">${e(K.money(c.amount))}</p>`;
  const title = byPlaces ? K.placesTitle(T.format.places(c.places!)) : K.heading;
  const left = byPlaces ? K.placesCount(c.balance) : K.money(c.balance);
  const whole = byPlaces ? c.places! : c.amount;
  const qr = c.botLink && usable ? await qrSvg(c.botLink, K.qr) : '';
  return `<!doctype html>
<html lang="${LOCALES[c.language]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(title)} — ${e(c.businessName)}</title>
<style>${STYLE}</style>
</head>
<body>
<main class="card" aria-labelledby="title">
  <p class="brand"${typedLang(c.businessName, c.language)}>${e(c.businessName)}</p>
  <h1 id="title">${e(K.heading)}</h1>
  ${value}
  ${c.recipient_name ? `<p class="for">${e(K.recipient)}: <strong${typedLang(c.recipient_name, c.language)}>${e(c.recipient_name)}</strong></p>` : ''}
  ${c.greeting ? `<p class="greeting"${typedLang(c.greeting, c.language)}>${e(K.quoted(c.greeting))}</p>` : ''}
  ${
    usable
      ? c.balance < whole
        ? `<p class="for">${e(byPlaces ? K.placesLeft : K.balance)}: <strong>${e(left)}</strong></p>`
        : ''
      : `<p class="state" role="status">${e(K.status[c.status])}</p>`
  }
  <div class="meta">
    <div><span class="label">${e(K.code)}</span><span class="code">${e(c.code)}</span></div>
    <div><span class="label">${e(K.validUntil)}</span>${e(T.format.date(c.expires_at, c.timezone))}</div>
  </div>
  <ol class="how" aria-label="${e(K.howTo)}">${howTo.map((t) => `<li>${e(t)}</li>`).join('')}</ol>
  ${
    c.botLink && usable
      ? `<div class="meta"><div class="qr">${qr}<span>${e(K.bookWith)}<br><a href="${e(c.botLink)}">${e(c.botLink.replace(/^https:\/\//, ''))}</a></span></div></div>`
      : ''
  }
</main>
<p class="hint">${e(K.print)}</p>
</body>
</html>`;
}

/** A code that has no card (unknown, mistyped, or too many tries): the reason, in the card's style. */
export const refusalPage = (businessName: string, message: string, language: Language) => `<!doctype html>
<html lang="${LOCALES[language]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(apiTexts(language).card.heading)} — ${e(businessName)}</title>
<style>${STYLE}</style>
</head>
<body>
<main class="card">
  <p class="brand"${typedLang(businessName, language)}>${e(businessName)}</p>
  <h1>${e(apiTexts(language).card.heading)}</h1>
  <p class="state" role="status">${e(message)}</p>
</main>
</body>
</html>`;
