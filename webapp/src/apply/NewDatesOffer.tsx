import { useState } from 'react';
import useSWR from 'swr';
import { Button, Cell, Section } from '@telegram-apps/telegram-ui';
import { dateSubscriptionsApi } from '../../../contract/endpoints/date-subscriptions';
import { call, errorText } from '../api';
import { useT, workshopTitle } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { haptic } from '../tg';
import { toast } from '../ui/toast';
import '../later.css';

/** "Сообщить о новых датах" for workshops without free upcoming dates (a Telegram customer only). */
export default function NewDatesOffer() {
  const T = useT();
  const { data, mutate } = useSWR('date-offers', () => call(dateSubscriptionsApi.offers), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  const [busy, setBusy] = useState<number | null>(null);
  if (!data || data.data.length === 0) return null;

  async function subscribe(workshopId: number) {
    setBusy(workshopId);
    try {
      await call(dateSubscriptionsApi.subscribe, { params: { id: workshopId } });
      haptic('success');
      toast({ kind: 'success', title: T.newDates.done });
      await mutate();
    } catch (err) {
      haptic('error');
      toast({ kind: 'error', title: T.newDates.failed, description: errorText(err) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Section header={T.newDates.header} footer={T.newDates.footer}>
      {data.data.map((o) => (
        <Cell
          key={o.workshop_id}
          multiline
          data-testid={`offer-${o.workshop_id}`}
          after={
            o.subscribed ? (
              <span className="offer__done">{T.newDates.subscribed}</span>
            ) : (
              <Button
                size="s"
                mode="bezeled"
                loading={busy === o.workshop_id}
                disabled={busy !== null}
                onClick={() => void subscribe(o.workshop_id)}
              >
                {T.newDates.subscribe}
              </Button>
            )
          }
        >
          {workshopTitle(o)}
        </Cell>
      ))}
    </Section>
  );
}
