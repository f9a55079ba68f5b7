import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { Button, Cell, Input, Section, Switch } from '@telegram-apps/telegram-ui';
import type { ScheduleOpen } from '../../../contract';
import {
  certificatePays,
  formatCertificateCode,
  normalizeCertificateCode,
  type CertificateCheck,
} from '../../../contract/certificates';
import { certificatesApi } from '../../../contract/endpoints/certificates';
import { promoCodesApi } from '../../../contract/endpoints/promo-codes';
import { call, errorText } from '../api';
import { config } from '../config';
import { useT } from '../i18n';
import { useCertificateTexts } from '../i18n/certificates';
import { haptic, telegramUser, uiPlatform } from '../tg';
import '../later.css';

/** What the booking is sent with; `pending`: a code is typed but not applied yet (the booking waits for it). */
export interface Extras {
  certificate_code: string | null;
  promo_code: string | null;
  pending: boolean;
}

/** One code field behind a switch: typed, applied (checked by the server), or refused with the reason. */
function useCode(initial: string | null) {
  const [open, setOpen] = useState(Boolean(initial));
  const [text, setText] = useState(initial ?? '');
  const [applied, setApplied] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = open && text.trim() !== '' && applied === null;
  return { open, setOpen, text, setText, applied, setApplied, error, setError, busy, setBusy, pending };
}

function CodeField({
  code,
  label,
  placeholder,
  onApply,
  testId,
}: {
  code: ReturnType<typeof useCode>;
  label: string;
  placeholder: string;
  onApply: () => void;
  testId: string;
}) {
  const C = useCertificateTexts();
  return (
    <Input
      header={label}
      // telegram-ui shows the header on the base layout only; iOS gets the inline label.
      before={uiPlatform() === 'ios' ? <span className="input-label">{label}</span> : undefined}
      aria-label={label}
      placeholder={placeholder}
      value={code.text}
      autoCapitalize="characters"
      autoComplete="off"
      spellCheck={false}
      status={code.error ? 'error' : undefined}
      aria-invalid={Boolean(code.error)}
      data-testid={testId}
      onChange={(e) => {
        code.setText(e.target.value);
        code.setApplied(null);
        code.setError(null);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          onApply();
        }
      }}
      after={
        code.applied === null ? (
          <Button type="button" size="s" mode="bezeled" loading={code.busy} onClick={onApply}>
            {C.apply.apply}
          </Button>
        ) : undefined
      }
    />
  );
}

/**
 * /apply step 2: «У меня есть сертификат» and «Промокод». A promo code is priced by the server's quote (again
 * when the party changes); a certificate is checked for this session and party, and shows what the server said
 * it pays (a places certificate: a place per person). A later change of the party or the promo code is priced
 * by the same rule here (certificatePays), so retyping nothing counts no more attempts at a code.
 */
export function PriceExtras({
  session,
  people,
  initialCertificate,
  onChange,
}: {
  session: ScheduleOpen;
  people: number;
  initialCertificate: string | null;
  onChange: (extras: Extras) => void;
}) {
  const T = useT();
  const C = useCertificateTexts();
  const tz = config().businessTimezone;
  const canAsk = Boolean(telegramUser());
  const cert = useCode(initialCertificate);
  const promo = useCode(null);
  const [check, setCheck] = useState<{ found: CertificateCheck; for: string } | null>(null);

  const { data: quote, error: quoteError } = useSWR(
    promo.applied ? ['quote', session.id, people, promo.applied] : null,
    () =>
      call(promoCodesApi.quote, {
        body: { schedule_id: session.id, people_count: people, promo_code: promo.applied },
      }),
    { revalidateOnFocus: false, shouldRetryOnError: false, keepPreviousData: true },
  );
  // A code that no longer fits (another party size) is refused by the quote: it is dropped with the reason.
  useEffect(() => {
    if (quoteError) {
      promo.setApplied(null);
      promo.setError(errorText(quoteError));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [quoteError]);

  const price = session.workshop.price * people;
  const total = promo.applied && quote ? quote.total : price;
  const priced = `${people}|${promo.applied && quote ? promo.applied : ''}`;
  const covered = !check
    ? { amount: 0, places: 0 }
    : check.for === priced && check.found.pays !== null
      ? { amount: check.found.pays, places: check.found.places_used ?? 0 }
      : certificatePays({ kind: check.found.kind, left: check.found.balance }, { price: total, people, owed: total });

  useEffect(() => {
    onChange({
      certificate_code: cert.open ? cert.applied : null,
      promo_code: promo.open ? promo.applied : null,
      pending: cert.pending || promo.pending,
    });
  }, [cert.open, cert.applied, cert.pending, promo.open, promo.applied, promo.pending, onChange]);

  async function applyCertificate() {
    const code = normalizeCertificateCode(cert.text);
    if (!code) {
      haptic('error');
      return cert.setError(C.apply.malformed);
    }
    cert.setBusy(true);
    try {
      const applied = promo.open && promo.applied && quote ? promo.applied : null;
      const found = await call(certificatesApi.check, {
        body: { code, schedule_id: session.id, people_count: people, promo_code: applied },
      });
      setCheck({ found, for: `${people}|${applied ?? ''}` });
      cert.setText(formatCertificateCode(code));
      cert.setApplied(code);
      cert.setError(null);
      haptic('success');
    } catch (err) {
      haptic('error');
      cert.setError(errorText(err));
    } finally {
      cert.setBusy(false);
    }
  }

  async function applyPromo() {
    const code = promo.text.trim();
    if (!code) return;
    promo.setBusy(true);
    try {
      // The first quote is asked here, so a refused code shows its reason at once; SWR keeps it for the price.
      await call(promoCodesApi.quote, {
        body: { schedule_id: session.id, people_count: people, promo_code: code },
      });
      promo.setText(code.toUpperCase());
      promo.setApplied(code);
      promo.setError(null);
      haptic('success');
    } catch (err) {
      haptic('error');
      promo.setError(errorText(err));
    } finally {
      promo.setBusy(false);
    }
  }

  const footer = [cert.error, promo.error].filter(Boolean).join(' ');
  const toggle = (code: ReturnType<typeof useCode>, on: boolean) => {
    haptic('selection');
    code.setOpen(on);
    if (!on) {
      code.setText('');
      code.setApplied(null);
      code.setError(null);
      if (code === cert) setCheck(null);
    }
  };
  return (
    <Section
      header={C.apply.header}
      footer={
        footer ? (
          <Section.Footer>
            <span className="field-error" role="alert">
              {footer}
            </span>
          </Section.Footer>
        ) : cert.pending || promo.pending ? (
          C.apply.notApplied
        ) : undefined
      }
    >
      <Cell
        Component="div"
        data-testid="quote-total"
        after={
          <span data-testid="price">
            {total !== price && <s>{T.fmt.price(price)}</s>} <b>{T.fmt.price(total)}</b>
          </span>
        }
      >
        {C.apply.price}
      </Cell>
      {promo.applied && quote && quote.discount > 0 && (
        <Cell Component="div" after={`−${T.fmt.price(quote.discount)}`} data-testid="promo-discount" multiline>
          {C.apply.discount(quote.promo_code ?? promo.applied)}
        </Cell>
      )}
      <Cell
        Component="label"
        after={
          <Switch aria-label={C.apply.have} checked={cert.open} onChange={(e) => toggle(cert, e.target.checked)} />
        }
        multiline
      >
        {C.apply.have}
      </Cell>
      {cert.open && (
        <CodeField
          code={cert}
          label={C.apply.code}
          placeholder="ABCD-EFGH-JKLM"
          onApply={() => void (canAsk ? applyCertificate() : undefined)}
          testId="certificate-code"
        />
      )}
      {cert.open && cert.applied && check && (
        <Cell
          Component="div"
          multiline
          data-testid="certificate-covers"
          subtitle={
            check.found.kind === 'places'
              ? C.apply.balancePlaces(C.apply.places(check.found.balance), T.fmt.date(check.found.expires_at, tz))
              : C.apply.balance(T.fmt.price(check.found.balance), T.fmt.date(check.found.expires_at, tz))
          }
          description={total > covered.amount ? C.apply.rest(T.fmt.price(total - covered.amount)) : undefined}
        >
          {check.found.kind === 'places'
            ? C.apply.coversPlaces(C.apply.places(covered.places), T.fmt.price(covered.amount))
            : C.apply.covers(T.fmt.price(covered.amount))}
        </Cell>
      )}
      <Cell
        Component="label"
        after={
          <Switch aria-label={C.apply.promo} checked={promo.open} onChange={(e) => toggle(promo, e.target.checked)} />
        }
      >
        {C.apply.promo}
      </Cell>
      {promo.open && (
        <CodeField
          code={promo}
          label={C.apply.promoCode}
          placeholder="SPRING10"
          onApply={() => void (canAsk ? applyPromo() : undefined)}
          testId="promo-code"
        />
      )}
    </Section>
  );
}
