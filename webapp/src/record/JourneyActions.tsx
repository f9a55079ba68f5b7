import { useState } from 'react';
import { Button } from '@telegram-apps/telegram-ui';
import type { RecordView, SeatGiftLink } from '../../../contract';
import { formatDate, formatTime } from '../../../contract/format';
import { recordsApi } from '../../../contract/endpoints/records';
import { call, errorText } from '../api';
import { config } from '../config';
import { downloadFile, haptic, openLink, openTelegramLink } from '../tg';
import { Notice } from '../ui/Notice';
import { toast } from '../ui/toast';

/** "Изменить запись уже нельзя": the deadline and how to reach the studio. */
export function DeadlineNotice({ view }: { view: RecordView }) {
  const tz = config().businessTimezone;
  const until = view.change_until!;
  return (
    <Notice tone="warning" title="Изменить запись уже нельзя">
      {`Отменить запись или изменить количество человек можно было до ${formatDate(until, tz)} ${formatTime(until, tz)}.`}
      {view.contact ? ` Свяжитесь со студией: ${view.contact}` : ' Свяжитесь со студией.'}
    </Notice>
  );
}

/** "Добавить в календарь": the signed .ics link (inside Telegram opened in its browser, which hands it to the calendar). */
export function CalendarButton({ view }: { view: RecordView }) {
  if (!view.calendar_url) return null;
  const href = view.calendar_url;
  return (
    <Button
      size="l"
      stretched
      mode="bezeled"
      data-href={href}
      onClick={async () => {
        const url = new URL(href, location.origin).toString();
        // Telegram's own download dialog where the client has it; else its browser, which hands the file on.
        if (await downloadFile(url, 'masterclass.ics')) return;
        if (!openLink(url)) location.assign(url);
      }}
    >
      Добавить в календарь
    </Button>
  );
}

const shareUrl = (url: string, title: string) =>
  `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(`Передаю тебе своё место на мастер-класс «${title}»`)}`;

/** "Передать место другу": a one-time link the customer sends; it dies when used, cancelled or at the start. */
export function GiftSeat({ view }: { view: RecordView }) {
  const [link, setLink] = useState<SeatGiftLink | null>(null);
  const [busy, setBusy] = useState(false);
  const title = view.record.schedule.workshop.title;

  async function create() {
    setBusy(true);
    try {
      setLink(await call(recordsApi.gift, { params: { id: view.record.id } }));
      haptic('success');
    } catch (err) {
      haptic('error');
      toast({ kind: 'error', title: 'Не удалось создать ссылку', description: errorText(err) });
    } finally {
      setBusy(false);
    }
  }

  if (!link)
    return (
      <Button size="l" stretched mode="bezeled" loading={busy} disabled={busy} onClick={() => void create()}>
        Передать место другу
      </Button>
    );
  const share = shareUrl(link.url, title);
  return (
    <div className="panel" role="region" aria-label="Передать место другу">
      <p className="gift-link__text">
        Отправьте другу эту ссылку. Она одноразовая и действует до начала мастер-класса: друг введёт своё имя и займёт
        ваше место.
      </p>
      <code className="gift-link__url" data-testid="gift-url">
        {link.url}
      </code>
      <Button
        size="m"
        stretched
        onClick={() => {
          if (!openTelegramLink(share)) window.open(share, '_blank', 'noopener');
        }}
      >
        Отправить другу
      </Button>
    </div>
  );
}

/** "Выйти из очереди" for a queued booking, asked once more before it happens. */
export function LeaveQueue({ view, onDone }: { view: RecordView; onDone: (v: RecordView) => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  async function leave() {
    setBusy(true);
    try {
      onDone(
        await call(recordsApi.cancel, {
          params: { id: view.record.id },
          body: { cancel_reason: 'Вышел(а) из очереди' },
        }),
      );
      haptic('success');
      toast({ kind: 'success', title: 'Вы вышли из очереди' });
    } catch (err) {
      haptic('error');
      toast({ kind: 'error', title: 'Не удалось выйти из очереди', description: errorText(err) });
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }
  if (!asking)
    return (
      <Button size="l" stretched mode="plain" className="btn-destructive" onClick={() => setAsking(true)}>
        Выйти из очереди
      </Button>
    );
  return (
    <div className="panel" role="region" aria-label="Выйти из очереди">
      <p className="gift-link__text">Выйти из очереди? Место в очереди не сохранится.</p>
      <div className="panel__buttons">
        <Button size="m" mode="gray" onClick={() => setAsking(false)}>
          Нет
        </Button>
        <Button size="m" className="btn-danger" loading={busy} disabled={busy} onClick={() => void leave()}>
          Да, выйти
        </Button>
      </div>
    </div>
  );
}

/** "Вы подтвердили участие" after "Приду" on a reminder. */
export function ConfirmedNote({ view }: { view: RecordView }) {
  if (!view.record.confirmed_at || view.record.state !== 'ACTIVE') return null;
  return (
    <Notice tone="info" title="Участие подтверждено">
      Вы ответили «Приду» на напоминание. Ждём вас!
    </Notice>
  );
}
