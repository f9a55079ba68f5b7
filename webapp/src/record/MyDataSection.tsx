import { useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '@telegram-apps/telegram-ui';
import type { PersonalDataExport } from '../../../contract';
import { formatDate, formatTime } from '../../../contract/format';
import { personalDataApi } from '../../../contract/endpoints/personal-data';
import { call, errorText } from '../api';
import { config } from '../config';
import { haptic } from '../tg';
import { toast } from '../ui/toast';
import '../ui/personal-data.css';

type Panel = 'none' | 'show' | 'forget';

/** "Мои данные" on the booking page: what is stored about the customer, and erasing it (as the bot's /mydata and /forget). */
export function MyDataSection() {
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
      toast({ kind: 'error', title: 'Не удалось загрузить данные', description: errorText(err) });
    } finally {
      setBusy(false);
    }
  }

  async function forget() {
    setBusy(true);
    try {
      const r = await call(personalDataApi.forgetMe);
      haptic('success');
      toast({
        kind: 'success',
        title: 'Ваши данные удалены',
        description: r.cancelled > 0 ? `Отменено предстоящих записей: ${r.cancelled}.` : undefined,
      });
      navigate('/apply', { replace: true });
    } catch (err) {
      haptic('error');
      toast({ kind: 'error', title: 'Не удалось удалить данные', description: errorText(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="my-data">
      <h2 id="my-data-title" className="my-data__title">
        Мои данные
      </h2>
      <p className="my-data__text">
        Можно посмотреть, что о вас хранится, или удалить это. В боте то же самое делают команды /mydata (с файлом) и
        /forget.
      </p>
      <div className="my-data__buttons">
        <Button size="m" stretched mode="bezeled" loading={busy && panel !== 'forget'} onClick={() => void show()}>
          {panel === 'show' ? 'Скрыть' : 'Показать мои данные'}
        </Button>
        <Button
          size="m"
          stretched
          mode="plain"
          className="btn-destructive"
          aria-expanded={panel === 'forget'}
          onClick={() => setPanel((p) => (p === 'forget' ? 'none' : 'forget'))}
        >
          Удалить мои данные
        </Button>
      </div>
      {panel === 'show' && data && (
        <div className="panel" role="region" aria-label="Что о вас хранится">
          {data.bookings.length === 0 && <p className="my-data__text">Записей нет.</p>}
          <ul className="my-data__list">
            {data.bookings.map((b) => (
              <li key={b.id}>
                «{b.workshop}», {formatDate(b.date, tz)} {formatTime(b.date, tz)}: {b.name}
                {b.last_name ? ` ${b.last_name}` : ''}, {b.people_count} чел.
                {b.has_allergy ? `, аллергия: ${b.allergy_type ?? 'да'}` : ''}
                {b.comment ? `, комментарий: ${b.comment}` : ''}
              </li>
            ))}
          </ul>
          {data.subscriptions.length > 0 && (
            <p className="my-data__text">
              Сообщить о новых датах: {data.subscriptions.map((s) => `«${s.workshop}»`).join(', ')}
            </p>
          )}
        </div>
      )}
      {panel === 'forget' && (
        <div className="panel" role="region" aria-label="Удалить мои данные">
          <p className="my-data__text">
            Предстоящие записи будут отменены, а во всех записях имя, Telegram-аккаунт, комментарий и сведения об
            аллергии будут удалены. Это нельзя отменить.
          </p>
          <div className="panel__buttons">
            <Button size="m" mode="gray" onClick={() => setPanel('none')}>
              Назад
            </Button>
            <Button size="m" className="btn-danger" loading={busy} disabled={busy} onClick={() => void forget()}>
              Удалить
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
