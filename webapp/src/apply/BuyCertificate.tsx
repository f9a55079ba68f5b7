import { Fragment, useEffect, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { Button, Caption, Cell, Input, Placeholder, Radio, Section, Textarea, Title } from '@telegram-apps/telegram-ui';
import type { MyCertificate } from '../../../contract/certificates';
import { certificatesApi } from '../../../contract/endpoints/certificates';
import { inLanguage } from '../../../contract/language';
import { shareApi } from '../../../contract/endpoints/share';
import { ApiError, call, errorText } from '../api';
import { config, withBase } from '../config';
import { currentLanguage, useT } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { useCertificateTexts } from '../i18n/certificates';
import { haptic, hasNativeBackButton, setBackButton, telegramUser, uiPlatform } from '../tg';
import {
  canShareMessage,
  hasTelegramClient,
  openInvoice,
  openLink,
  openTelegramLink,
  shareMessage,
} from '../tg-native';
import { Notice } from '../ui/Notice';
import { toast } from '../ui/toast';
import { useMainButton } from '../ui/useMainButton';
import { CenteredSpinner } from './CenteredSpinner';
import '../later.css';

const MINE_KEY = 'me/certificates';

/**
 * Gives a paid certificate: Telegram's dialog with the message the bot prepared (Mini Apps 8.0+), else
 * Telegram's share of the card's link.
 */
function ShareCertificate({ certificate }: { certificate: MyCertificate }) {
  const T = useT();
  const [busy, setBusy] = useState(false);
  const share = async () => {
    setBusy(true);
    try {
      if (canShareMessage()) {
        const prepared = await call(shareApi.certificate, { params: { id: certificate.id } });
        if (await shareMessage(prepared.id)) {
          haptic('success');
          toast({ kind: 'success', title: T.native.certificateSent });
        }
        return;
      }
      const link = `https://t.me/share/url?url=${encodeURIComponent(location.origin + withBase(certificate.url ?? ''))}`;
      if (!openTelegramLink(link)) window.open(link, '_blank', 'noopener');
    } catch (err) {
      haptic('error');
      const failed = err instanceof ApiError && err.status === 503;
      toast({
        kind: 'error',
        title: T.native.certificateShareFailed,
        description: failed ? undefined : errorText(err),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="m" mode="bezeled" stretched loading={busy} onClick={() => void share()}>
      {T.native.certificateShare}
    </Button>
  );
}

/** The customer's certificates: bought here or opened from their link, with the balance and the card. */
function MyCertificates() {
  const T = useT();
  const C = useCertificateTexts();
  const tz = config().businessTimezone;
  const { data } = useSWR(MINE_KEY, () => call(certificatesApi.mine, {}), { revalidateOnFocus: false });
  if (!data || data.data.length === 0) return null;
  return (
    <Section header={C.buy.mine} data-testid="my-certificates">
      {data.data.map((c) => (
        <Fragment key={c.id}>
          <Cell
            Component="div"
            multiline
            subhead={C.buy.statuses[c.status]}
            subtitle={`${
              c.kind === 'places' && c.places !== null
                ? C.buy.balancePlaces(c.balance, c.places)
                : C.buy.balance(T.fmt.price(c.balance), T.fmt.price(c.amount))
            } · ${C.buy.until(T.fmt.date(c.expires_at, tz))}`}
            description={c.recipient_name ?? undefined}
          >
            {c.code ?? T.fmt.price(c.amount)}
          </Cell>
          {c.status === 'active' && c.code && c.url && (
            <div className="pay">
              <ShareCertificate certificate={c} />
              <CardLink url={c.url} label={C.buy.card} />
            </div>
          )}
        </Fragment>
      ))}
    </Section>
  );
}

/**
 * Buying a gift certificate: an amount from the studio's list, whom it is for and a greeting; paid with a
 * Telegram invoice when the studio takes payments in Telegram, else sent as a request staff confirm once paid.
 * The certificate itself comes in the chat with the bot when it is paid.
 */
export default function BuyCertificate({ onBack }: { onBack: () => void }) {
  const T = useT();
  const C = useCertificateTexts();
  const user = telegramUser();
  const ios = uiPlatform() === 'ios';
  const {
    data: options,
    error,
    mutate,
  } = useSWR('certificates/options', () => call(certificatesApi.options, {}), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  const { mutate: refresh } = useSWRConfig();
  const [amount, setAmount] = useState<number | null>(null);
  const [recipient, setRecipient] = useState('');
  const [greeting, setGreeting] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<'paid' | 'requested' | null>(null);

  useEffect(() => setBackButton(onBack), [onBack]);
  useEffect(() => () => void setBackButton(null), []);
  useEffect(() => {
    window.scrollTo?.(0, 0);
  }, [done]);
  const chosen = amount ?? options?.amounts[0] ?? null;

  async function buy() {
    if (!user || chosen === null) return haptic('error');
    setBusy(true);
    try {
      const result = await call(certificatesApi.purchase, {
        body: { amount: chosen, recipient_name: recipient.trim() || null, greeting: greeting.trim() || null },
      });
      if (result.invoice_url) {
        const status = await openInvoice(result.invoice_url);
        if (status === 'paid') {
          haptic('success');
          setDone('paid');
        }
      } else {
        haptic('success');
        setDone('requested');
      }
      void refresh(MINE_KEY);
    } catch (err) {
      haptic('error');
      toast({ kind: 'error', title: C.buy.failed, description: errorText(err) });
    } finally {
      setBusy(false);
    }
  }

  const action = options?.telegram && chosen !== null ? C.buy.pay(T.fmt.price(chosen)) : C.buy.request;
  const native = hasTelegramClient();
  useMainButton(
    native && options && !done
      ? { text: action, active: Boolean(user) && chosen !== null && !busy, progress: busy }
      : null,
    () => void buy(),
  );

  if (error)
    return (
      <Placeholder
        className="state"
        header={C.buy.failed}
        description={errorText(error)}
        action={
          <Button size="m" mode="bezeled" onClick={() => void mutate()}>
            {T.common.retry}
          </Button>
        }
      />
    );
  if (!options) return <CenteredSpinner />;
  if (done)
    return (
      <main className="page" aria-label={C.buy.title}>
        <Placeholder
          className="state success"
          header={C.buy.title}
          description={done === 'paid' ? C.buy.paid : C.buy.requested}
          action={
            <div className="success__actions">
              <Button size="l" stretched onClick={onBack}>
                {C.buy.toSchedule}
              </Button>
            </div>
          }
        />
        <MyCertificates />
      </main>
    );

  return (
    <main className="page" aria-label={C.buy.title}>
      <header className="record-header">
        <Title level="2" weight="1" Component="h1" className="record-header__title">
          {C.buy.title}
        </Title>
        <Caption level="1" className="record-header__business">
          {C.buy.intro}
        </Caption>
        {!hasNativeBackButton() && (
          <Button type="button" size="s" mode="bezeled" onClick={onBack}>
            {T.common.back}
          </Button>
        )}
      </header>
      {!user && (
        <div className="section-notice">
          <Notice tone="danger" title={T.common.noTelegramTitle}>
            {T.contact.noTelegramUser}
          </Notice>
        </div>
      )}
      <Section header={C.buy.amount} footer={C.buy.valid(options.months)}>
        <div role="radiogroup" aria-label={C.buy.amount}>
          {options.amounts.map((a) => (
            <Cell
              key={a}
              Component="label"
              before={
                <Radio
                  name="amount"
                  value={String(a)}
                  checked={chosen === a}
                  onChange={() => {
                    haptic('selection');
                    setAmount(a);
                  }}
                  aria-label={T.fmt.price(a)}
                />
              }
            >
              {T.fmt.price(a)}
            </Cell>
          ))}
        </div>
      </Section>
      <Section header={C.buy.recipient}>
        <Input
          header={C.buy.recipient}
          before={ios ? <span className="input-label">{C.buy.recipient}</span> : undefined}
          placeholder={C.buy.recipientPlaceholder}
          aria-label={C.buy.recipient}
          maxLength={100}
          value={recipient}
          onChange={(e) => setRecipient(e.target.value)}
        />
      </Section>
      <Section header={C.buy.greeting}>
        <Textarea
          header={C.buy.greeting}
          placeholder={C.buy.greetingPlaceholder}
          aria-label={C.buy.greeting}
          maxLength={500}
          rows={3}
          value={greeting}
          onChange={(e) => setGreeting(e.target.value)}
        />
      </Section>
      {!options.telegram && <p className="consent-line">{C.buy.requestHint}</p>}
      <MyCertificates />
      {/* Inside Telegram the MainButton is the visible action; this one stays for screen readers and Enter. */}
      <div className={native ? 'visually-hidden' : 'submit-bar'}>
        <Button
          size="l"
          stretched
          loading={busy}
          disabled={!user || busy || chosen === null}
          onClick={() => void buy()}
        >
          {action}
        </Button>
      </div>
    </main>
  );
}

/** The printable card in the mini-app's language: inside Telegram in its in-app browser. */
function CardLink({ url, label }: { url: string; label: string }) {
  const href = withBase(inLanguage(url, currentLanguage()));
  return (
    <Button
      Component="a"
      href={href}
      target="_blank"
      rel="noopener"
      size="m"
      mode="plain"
      stretched
      onClick={(e: React.MouseEvent) => {
        if (openLink(location.origin + href)) e.preventDefault();
      }}
    >
      {label}
    </Button>
  );
}
