import { useState } from 'react';
import { Button } from '@telegram-apps/telegram-ui';
import type { RecordView } from '../../../contract';
import { recordsApi } from '../../../contract/endpoints/records';
import { shareApi } from '../../../contract/endpoints/share';
import { ApiError, call, errorText } from '../api';
import { useT, workshopTitle, ru } from '../i18n';
import '../../../contract/texts/ru/app-later';
import { config, withBase } from '../config';
import { haptic } from '../tg';
import {
  canShareMessage,
  downloadFile,
  hasSecondaryButton,
  openLink,
  openTelegramLink,
  shareMessage,
} from '../tg-native';
import { useSecondaryButton } from '../ui/useMainButton';
import { Notice } from '../ui/Notice';
import { toast } from '../ui/toast';
import '../later.css';

/** "Изменить запись уже нельзя": the deadline and how to reach the studio. */
export function DeadlineNotice({ view }: { view: RecordView }) {
  const T = useT();
  const tz = config().businessTimezone;
  const until = view.change_until!;
  return (
    <Notice tone="warning" title={T.journey.deadlineTitle}>
      {T.journey.deadline(`${T.fmt.date(until, tz)} ${T.fmt.time(until, tz)}`)}
      {view.contact ? T.journey.contact(view.contact) : T.journey.contactNone}
    </Notice>
  );
}

/** "Добавить в календарь": the signed .ics link (inside Telegram opened in its browser, which hands it to the calendar). */
export function CalendarButton({ view }: { view: RecordView }) {
  const T = useT();
  if (!view.calendar_url) return null;
  // A path of this server (under the API prefix): under the studio's prefix too.
  const href = withBase(view.calendar_url);
  return (
    <Button
      size="l"
      stretched
      mode="bezeled"
      data-href={href}
      onClick={async () => {
        const url = new URL(href, location.origin).toString();
        // Telegram's own download dialog where the client has it; else its browser, which hands the file on.
        if (await downloadFile(url, T.journey.calendarFile)) return;
        if (!openLink(url)) location.assign(url);
      }}
    >
      {T.journey.calendar}
    </Button>
  );
}

const shareUrl = (url: string, text: string) =>
  `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`;

/**
 * "Передать место другу": a one-time link the customer sends; it dies when used, cancelled or at the start.
 * Where the client can (Mini Apps 8.0+) the bot prepares it as a message and Telegram's own dialog sends
 * it to the chat the customer picks; elsewhere, or when Telegram cannot prepare it, the link is shared.
 */
export function GiftSeat({ view }: { view: RecordView }) {
  const T = useT();
  const [link, setLink] = useState<{ url: string; messageId: string | null } | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const params = { params: { id: view.record.id } };

  async function share(messageId: string) {
    if (await shareMessage(messageId)) {
      setSent(true);
      haptic('success');
    }
  }

  async function prepared(): Promise<{ url: string; messageId: string | null }> {
    if (canShareMessage())
      try {
        const message = await call(shareApi.seatGift, params);
        return { url: message.url, messageId: message.id };
      } catch (err) {
        // Telegram could not prepare the message: the plain link still gives the seat.
        if (!(err instanceof ApiError && err.status === 503)) throw err;
        toast({ kind: 'error', title: T.native.giftPrepareFailed });
      }
    return { url: (await call(recordsApi.gift, params)).url, messageId: null };
  }

  async function create() {
    setBusy(true);
    try {
      const next = await prepared();
      setLink(next);
      haptic('success');
      if (next.messageId) void share(next.messageId);
    } catch (err) {
      haptic('error');
      toast({ kind: 'error', title: T.journey.giftFailed, description: errorText(err) });
    } finally {
      setBusy(false);
    }
  }

  if (!link)
    return (
      <Button size="l" stretched mode="bezeled" loading={busy} disabled={busy} onClick={() => void create()}>
        {T.journey.gift}
      </Button>
    );
  const send = () => {
    if (link.messageId) return void share(link.messageId);
    const url = shareUrl(link.url, T.journey.giftShare(workshopTitle(view.record.schedule.workshop)));
    if (!openTelegramLink(url)) window.open(url, '_blank', 'noopener');
  };
  return (
    <div className="panel" role="region" aria-label={T.journey.gift}>
      <p className="gift-link__text">{T.journey.giftText}</p>
      <code className="gift-link__url" data-testid="gift-url">
        {link.url}
      </code>
      {sent && (
        <p className="gift-link__text" role="status">
          {T.native.giftSent}
        </p>
      )}
      <Button size="m" stretched onClick={send}>
        {T.journey.giftSend}
      </Button>
    </div>
  );
}

/**
 * "Выйти из очереди" for a queued booking, asked once more before it happens. On a client with the
 * SecondaryButton (7.10+) the action is that button, beside the MainButton; elsewhere the page's own.
 */
export function LeaveQueue({ view, onDone }: { view: RecordView; onDone: (v: RecordView) => void }) {
  const T = useT();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const native = hasSecondaryButton();
  useSecondaryButton(native && !asking ? { text: T.journey.leave, active: true, progress: false } : null, () =>
    setAsking(true),
  );
  async function leave() {
    setBusy(true);
    try {
      onDone(
        await call(recordsApi.cancel, {
          params: { id: view.record.id },
          // Staff read the reason: it stays Russian.
          body: { cancel_reason: ru.journey.leaveReason },
        }),
      );
      haptic('success');
      toast({ kind: 'success', title: T.journey.left });
    } catch (err) {
      haptic('error');
      toast({ kind: 'error', title: T.journey.leaveFailed, description: errorText(err) });
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }
  if (!asking) {
    const button = (
      <Button size="l" stretched mode="plain" className="btn-destructive" onClick={() => setAsking(true)}>
        {T.journey.leave}
      </Button>
    );
    // Inside a client with the SecondaryButton that is the visible action; this one stays for screen readers.
    return native ? <div className="visually-hidden">{button}</div> : button;
  }
  return (
    <div className="panel" role="region" aria-label={T.journey.leave}>
      <p className="gift-link__text">{T.journey.leaveAsk}</p>
      <div className="panel__buttons">
        <Button size="m" mode="gray" onClick={() => setAsking(false)}>
          {T.common.no}
        </Button>
        <Button size="m" className="btn-danger" loading={busy} disabled={busy} onClick={() => void leave()}>
          {T.journey.leaveYes}
        </Button>
      </div>
    </div>
  );
}

/** "Вы подтвердили участие" after "Приду" on a reminder. */
export function ConfirmedNote({ view }: { view: RecordView }) {
  const T = useT();
  if (!view.record.confirmed_at || view.record.state !== 'ACTIVE') return null;
  return (
    <Notice tone="info" title={T.journey.confirmedTitle}>
      {T.journey.confirmed}
    </Notice>
  );
}
