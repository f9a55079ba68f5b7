import { Cell } from '@telegram-apps/telegram-ui';
import type { RecordView } from '../../../contract';
import { useT } from '../i18n';
import { useCertificateTexts } from '../i18n/certificates';

/** What a promo code took off the booking's price and what a gift certificate paid of it. */
export function CertificateLines({ view }: { view: RecordView }) {
  const T = useT();
  const C = useCertificateTexts();
  const m = view.money;
  const discount = m?.discount ?? 0;
  const byCertificate = m?.paid_by_certificate ?? 0;
  return (
    <>
      {discount > 0 && view.record.promo_code && (
        <Cell subhead={C.apply.discount(view.record.promo_code)} multiline>
          <span data-testid="record-discount">−{T.fmt.price(discount)}</span>
        </Cell>
      )}
      {byCertificate > 0 && (
        <Cell subhead={C.apply.paidByCertificate}>
          <span data-testid="record-certificate">{T.fmt.price(byCertificate)}</span>
        </Cell>
      )}
    </>
  );
}
