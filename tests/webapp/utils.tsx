import './matchers';
import { render } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { vi } from 'vitest';
import type { RecordView, ScheduleOpen } from '../../contract';
import { App } from '../../webapp/src/App';
import { resetConfig } from '../../webapp/src/config';
import { initTelegram } from '../../webapp/src/tg';
import { clearToasts } from '../../webapp/src/ui/toast';
import { allowedActions } from '../../core/booking/allowed';
import { customerActor } from '../../core/kernel/actor';

export const TG_USER = { id: 424242, first_name: 'Анна', last_name: 'Петрова', username: 'anna_p' };
export const INIT_DATA = new URLSearchParams({
  auth_date: '1763700000',
  user: JSON.stringify(TG_USER),
  hash: 'a'.repeat(64),
}).toString();

export function launchHash(opts: { user?: boolean; theme?: Record<string, string> } = {}) {
  const initData =
    opts.user === false ? new URLSearchParams({ auth_date: '1763700000', hash: 'b'.repeat(64) }).toString() : INIT_DATA;
  return `#${new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'ios',
    tgWebAppThemeParams: JSON.stringify(
      opts.theme ?? { bg_color: '#ffffff', text_color: '#000000', button_color: '#009688' },
    ),
  }).toString()}`;
}

export interface Call {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}
type Handler = (call: Call) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>;

/** Replaces fetch with a tiny router: "GET /schedule/public" → handler. Unknown routes answer 404. */
export function mockApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const path = String(url).replace(/^\/api\/v1/, '');
    const call: Call = {
      method: init.method ?? 'GET',
      path,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const handler = routes[`${call.method} ${path}`];
    const res = handler ? await handler(call) : { status: 404, body: { detail: 'Not Found' } };
    return new Response(res.body === undefined ? null : JSON.stringify(res.body), {
      status: res.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const telegramEvents: [string, unknown][] = [];

/** Opens the app at `url` (path + optional launch hash), as Telegram would. */
export function openApp(url: string) {
  window.history.replaceState(null, '', url);
  initTelegram();
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <App />
    </SWRConfig>,
  );
}

export function resetEnvironment() {
  sessionStorage.clear();
  localStorage.clear();
  document.documentElement.removeAttribute('style');
  document.head.querySelectorAll('meta[name="app-config"]').forEach((m) => m.remove());
  resetConfig();
  clearToasts();
  telegramEvents.length = 0;
  // Telegram's mobile clients: the SDK posts through window.TelegramWebviewProxy.
  Object.defineProperty(window, 'TelegramWebviewProxy', {
    configurable: true,
    writable: true,
    value: {
      postEvent(name: string, data?: string) {
        telegramEvents.push([name, data ? JSON.parse(data) : undefined]);
      },
    },
  });
}

const isWebView = (v: unknown): v is { receiveEvent: (name: string) => void } =>
  typeof v === 'object' && v !== null && 'receiveEvent' in v && typeof v.receiveEvent === 'function';

/** Telegram's client sends the page an event, where the SDK receives it (window.Telegram.WebView). */
export function receiveTelegramEvent(name: string) {
  const telegram: unknown = 'Telegram' in window ? window.Telegram : undefined;
  const webView =
    typeof telegram === 'object' && telegram !== null && 'WebView' in telegram ? telegram.WebView : undefined;
  if (!isWebView(webView)) throw new Error('The Telegram SDK has not set up window.Telegram.WebView');
  webView.receiveEvent(name);
}

const future = (days: number, hourUtc = 11) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
};
export { future };

export function session(over: Partial<ScheduleOpen> = {}): ScheduleOpen {
  return {
    id: 7,
    date: '2030-11-21T11:00:00.000Z',
    capacity: 8,
    places_available: 3,
    workshop: { id: 1, title: 'Хинкали и хачапури', description: 'Грузинская кухня', price: 3500 },
    address: {
      id: 1,
      title: 'Нови Сад, Змај Јовина 12',
      map_link: 'https://maps.example.com/?q=1',
      description: 'Вход со двора',
    },
    ...over,
  };
}

export function recordView(
  over: Partial<RecordView['record']> = {},
  extra: Partial<Omit<RecordView, 'record'>> = {},
): RecordView {
  const s = session();
  const record: RecordView['record'] = {
    id: 15,
    schedule_id: s.id,
    state: 'ACTIVE',
    name: 'Анна',
    last_name: 'Петрова',
    people_count: 2,
    telegram_login: 'anna_p',
    telegram_id: TG_USER.id,
    comment: 'Будем с ребёнком',
    has_allergy: true,
    allergy_type: 'орехи',
    source: 'instagram',
    is_first_time: true,
    cancel_reason: null,
    attendance: null,
    is_cancelled: false,
    created_at: '2030-11-01T10:00:00.000Z',
    schedule: { id: s.id, date: s.date, capacity: s.capacity, workshop: s.workshop, address: s.address },
    ...over,
  };
  // What the server would allow this customer: the rule itself, from the booking and its deadline.
  const deadlineHours = extra.change_until
    ? (Date.parse(record.schedule.date) - Date.parse(extra.change_until)) / 3_600_000
    : 0;
  const allowed = allowedActions({
    actor: customerActor(TG_USER.id),
    record,
    schedule: record.schedule,
    settings: { change_deadline_hours: deadlineHours, contact: extra.contact ?? '' },
  });
  return { record, places_available: 3, queue_position: null, allowed, ...extra };
}
