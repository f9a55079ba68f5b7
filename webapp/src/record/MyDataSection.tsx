import { useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '@telegram-apps/telegram-ui';
import type { PersonalDataExport } from '../../../contract';
import { personalDataApi } from '../../../contract/endpoints/personal-data';
import { call, errorText } from '../api';
import { config } from '../config';
import { useT } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { haptic } from '../tg';
import { toast } from '../ui/toast';
import '../ui/personal-data.css';
import '../later.css';

type Panel = 'none' | 'show' | 'forget';

/** "Мои данные" on the booking page: what is stored about the customer, and erasing it (as the bot's /mydata and /forget). */
export function MyDataSection() {
  const T = useT();
  const M = T.myData;
  const [, navigate] = useLocation();
  const [panel, setPanel] = useState<Panel>('none');
  const [data, setData] = useState<PersonalDataExport | null>(null);
  const [busy, setBusy] = useState(false);
  const tz = config().businessTimezone;

  async function show() {
    if (panel === 'show') return setPanel('none');
    setBusy(true);
    try {
      setData(await call(personalDataApi.myData));
      setPanel('show');
    } catch (err) {
      toast({ kind: 'error', title: M.loadFailed, description: errorText(err) });
    } finally {
      setBusy(false);
    }
  }

  /** The erasure's panel: it says the money first, so the customer's data (with it) is loaded. */
  async function openForget() {
    if (panel === 'forget') return setPanel('none');
    setPanel('forget');
    if (data) return;
    try {
      setData(await call(personalDataApi.myData));
    } catch {
      // The panel still asks; the money line is left out.
    }
  }

  async function forget() {
    setBusy(true);
    try {
      const r = await call(personalDataApi.forgetMe);
      haptic('success');
      toast({
        kind: 'success',
        title: M.deleted,
        description: r.cancelled > 0 ? M.cancelledUpcoming(r.cancelled) : undefined,
      });
      navigate('/apply', { replace: true });
    } catch (err) {
      haptic('error');
      toast({ kind: 'error', title: M.deleteFailed, description: errorText(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="my-data">
      <h2 id="my-data-title" className="my-data__title">
        {M.title}
      </h2>
      <p className="my-data__text">{M.text}</p>
      <div className="my-data__buttons">
        <Button size="m" stretched mode="bezeled" loading={busy && panel !== 'forget'} onClick={() => void show()}>
          {panel === 'show' ? M.hide : M.show}
        </Button>
        <Button
          size="m"
          stretched
          mode="plain"
          className="btn-destructive"
          aria-expanded={panel === 'forget'}
          onClick={() => void openForget()}
        >
          {M.forget}
        </Button>
      </div>
      {panel === 'show' && data && (
        <div className="panel" role="region" aria-label={M.stored}>
          {data.bookings.length === 0 && <p className="my-data__text">{M.none}</p>}
          <ul className="my-data__list">
            {data.bookings.map((b) => (
              <li key={b.id}>
                «{b.workshop}», {T.fmt.date(b.date, tz)} {T.fmt.time(b.date, tz)}: {b.name}
                {b.last_name ? ` ${b.last_name}` : ''}, {M.people(b.people_count)}
                {b.has_allergy ? `, ${M.allergy(b.allergy_type)}` : ''}
                {b.comment ? `, ${M.comment(b.comment)}` : ''}
              </li>
            ))}
          </ul>
          {data.subscriptions.length > 0 && (
            <p className="my-data__text">
              {M.subscriptions(data.subscriptions.map((s) => `«${s.workshop}»`).join(', '))}
            </p>
          )}
          {data.staff_note && <p className="my-data__text">{M.staffNote(data.staff_note)}</p>}
        </div>
      )}
      {panel === 'forget' && (
        <div className="panel" role="region" aria-label={M.forget}>
          <p className="my-data__text">{M.forgetText}</p>
          {data?.money && data.money.owed > 0 && (
            <p className="my-data__text" data-testid="forget-money">
              {M.forgetMoney(
                T.fmt.price(data.money.credit),
                T.fmt.price(data.money.paid),
                T.fmt.price(data.money.owed),
              )}
            </p>
          )}
          <div className="panel__buttons">
            <Button size="m" mode="gray" onClick={() => setPanel('none')}>
              {T.common.back}
            </Button>
            <Button size="m" className="btn-danger" loading={busy} disabled={busy} onClick={() => void forget()}>
              {M.delete}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
