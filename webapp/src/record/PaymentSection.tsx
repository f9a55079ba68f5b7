import { useState } from 'react';
import useSWR from 'swr';
import { Button, Caption, Cell, Section } from '@telegram-apps/telegram-ui';
import type { RecordView } from '../../../contract';
import { paymentsApi } from '../../../contract/endpoints/payments';
import { call, errorText } from '../api';
import { config } from '../config';
import { useT } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { haptic, telegramUser } from '../tg';
import { openInvoice } from '../tg-native';
import { Notice } from '../ui/Notice';
import { toast } from '../ui/toast';
import { IconWallet } from '../ui/icons';
import { CertificateLines, discountOf } from './CertificateLines';
import '../later.css';

/** The NBS IPS string's tag values (K:PR|V:01|…|S:…|RO:…). */
const ipsTags = (text: string) =>
  Object.fromEntries(text.split('|').map((p) => [p.slice(0, p.indexOf(':')), p.slice(p.indexOf(':') + 1)]));

/** The transfer by IPS QR: the code to scan and the same details in plain text. */
function IpsTransfer({ recordId }: { recordId: number }) {
  const PAY_TEXTS = useT().payment;
  const { data, error } = useSWR(['ips-qr', recordId], () => call(paymentsApi.ipsQr, { params: { id: recordId } }), {
    revalidateOnFocus: false,
  });
  if (error) return <Caption level="1">{errorText(error)}</Caption>;
  if (!data) return null;
  const t = ipsTags(data.text);
  return (
    <div className="ips" data-testid="ips-qr">
      <Caption level="1" className="ips__hint">
        {PAY_TEXTS.qrHint}
      </Caption>
      <img className="ips__code" src={data.image} alt={PAY_TEXTS.qrAlt} width={220} height={220} />
      <dl className="ips__details">
        <dt>{PAY_TEXTS.account}</dt>
        <dd>{`${t.R.slice(0, 3)}-${t.R.slice(3, 16)}-${t.R.slice(16)}`}</dd>
        <dt>{PAY_TEXTS.recipient}</dt>
        <dd>{t.N}</dd>
        <dt>{PAY_TEXTS.due}</dt>
        <dd>{t.I.replace(/^RSD/, '') + ' RSD'}</dd>
        <dt>{PAY_TEXTS.purpose}</dt>
        <dd>{t.S}</dd>
        <dt>{PAY_TEXTS.reference}</dt>
        <dd>{`${t.RO.slice(0, 2)} ${t.RO.slice(2)}`}</dd>
      </dl>
    </div>
  );
}

/** The booking's price, what is paid, what is due and by when, how to pay, and the customer's studio credit. */
export function PaymentSection({ view, onPaid }: { view: RecordView; onPaid: () => void }) {
  const T = useT();
  const PAY_TEXTS = T.payment;
  const formatPrice = T.fmt.price;
  const m = view.money;
  const pay = view.pay;
  const [busy, setBusy] = useState(false);
  const { data: credit } = useSWR(telegramUser() ? ['credit'] : null, () => call(paymentsApi.credit, {}), {
    revalidateOnFocus: false,
  });
  if (!m || m.price <= 0) return null;
  const active = view.record.state === 'ACTIVE';
  const due = m.pay_now;
  const payTelegram = async () => {
    setBusy(true);
    try {
      const { url } = await call(paymentsApi.invoice, { params: { id: view.record.id } });
      const status = await openInvoice(url);
      if (status === 'paid') {
        haptic('success');
        toast({ kind: 'success', title: PAY_TEXTS.paidToast });
      }
      onPaid();
    } catch (err) {
      haptic('error');
      toast({ kind: 'error', title: errorText(err) });
    } finally {
      setBusy(false);
    }
  };
  const tz = config().businessTimezone;
  return (
    <Section header={PAY_TEXTS.header} data-testid="payment-section">
      <Cell before={<IconWallet className="cell-icon" />} subhead={PAY_TEXTS.price}>
        {/* Before the discount: the discount and the price after it follow. */}
        <span data-testid="price">{formatPrice(m.price + discountOf(view))}</span>
      </Cell>
      <CertificateLines view={view} />
      {m.amount_paid !== 0 && (
        <Cell
          subhead={PAY_TEXTS.paid}
          description={m.paid_by_credit > 0 ? PAY_TEXTS.fromCredit(formatPrice(m.paid_by_credit)) : undefined}
          multiline
        >
          <span data-testid="paid">{formatPrice(m.amount_paid)}</span>
        </Cell>
      )}
      {m.balance > 0 && active && (
        <Cell subhead={PAY_TEXTS.due}>
          <span data-testid="due">{formatPrice(m.balance)}</span>
        </Cell>
      )}
      {m.balance < 0 && (
        <Cell subhead={PAY_TEXTS.refund}>
          <span data-testid="refund">{formatPrice(-m.balance)}</span>
        </Cell>
      )}
      {due > 0 && (
        <div className="pay">
          {m.pay_by && m.required_now > m.amount_paid && (
            <Notice tone="warning" title={PAY_TEXTS.payBy(formatPrice(due), T.fmt.dateTime(m.pay_by, tz))}>
              {PAY_TEXTS.payByText}
            </Notice>
          )}
          {pay?.telegram && (
            <Button size="l" stretched loading={busy} onClick={() => void payTelegram()}>
              {PAY_TEXTS.telegram}
            </Button>
          )}
          {pay?.ips_qr && <IpsTransfer recordId={view.record.id} />}
          <Caption level="1" className="pay__studio">
            {pay?.telegram || pay?.ips_qr ? PAY_TEXTS.orAtStudio : PAY_TEXTS.atStudio}
          </Caption>
        </div>
      )}
      {credit && credit.balance > 0 && (
        <Caption level="1" className="pay__credit" data-testid="credit">
          {PAY_TEXTS.credit(formatPrice(credit.balance))}
        </Caption>
      )}
    </Section>
  );
}
