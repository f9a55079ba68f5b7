import { Cell, Section } from '@telegram-apps/telegram-ui';
import type { RecordView } from '../../../contract';
import { receiptKind } from '../../../contract/receipts';
import { config } from '../config';
import { useT } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { openLink } from '../tg-native';

/**
 * The booking's fiscal receipts, oldest first: each one's kind, amount and date, the PFR's number, and
 * the Tax Administration's page that verifies it (left out for one typed from the studio's own register).
 */
export function ReceiptsSection({ view }: { view: RecordView }) {
  const T = useT();
  const R = T.receipts;
  const receipts = view.receipts ?? [];
  if (receipts.length === 0) return null;
  const tz = config().businessTimezone;
  return (
    <Section header={R.header}>
      {receipts.map((r) => {
        const url = r.verification_url;
        return (
          <Cell
            key={r.id}
            data-testid={`receipt-${r.id}`}
            subhead={R.kinds[receiptKind(r.invoice_type, r.transaction_type)]}
            description={R.issued(T.fmt.price(r.amount), r.issued_at ? T.fmt.date(r.issued_at, tz) : '')}
            multiline
            after={
              url ? (
                <a
                  className="map-link"
                  href={url}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${R.verify}: ${r.invoice_number}`}
                  onClick={(e) => {
                    // Inside Telegram the page opens in Telegram's browser.
                    if (openLink(url)) e.preventDefault();
                  }}
                >
                  {R.verify}
                </a>
              ) : undefined
            }
          >
            <span className="receipt-number">{r.invoice_number}</span>
          </Cell>
        );
      })}
    </Section>
  );
}
