import { Cell } from '@telegram-apps/telegram-ui';
import type { RecordView } from '../../../contract';
import { useT } from '../i18n';
import { useCertificateTexts } from '../i18n/certificates';

/** The promo discount that is part of the price (staff's price per person replaces the discount). */
export const discountOf = (view: RecordView) =>
  view.money && view.record.promo_code && view.money.price_override === null ? (view.money.discount ?? 0) : 0;

/**
 * What a promo code took off the booking's price, then the price after it, then what a gift certificate
 * paid of it: price, discount and amount due read in that order.
 */
export function CertificateLines({ view }: { view: RecordView }) {
  const T = useT();
  const C = useCertificateTexts();
  const m = view.money;
  const discount = discountOf(view);
  const byCertificate = m?.paid_by_certificate ?? 0;
  return (
    <>
      {discount > 0 && (
        <Cell subhead={C.apply.discount(view.record.promo_code ?? '')} multiline>
          <span data-testid="record-discount">−{T.fmt.price(discount)}</span>
        </Cell>
      )}
      {discount > 0 && m && (
        <Cell subhead={T.payment.total}>
          <span data-testid="record-total">{T.fmt.price(m.price)}</span>
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
