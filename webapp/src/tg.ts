/**
 * The Telegram side of the mini-app: launch parameters, init data, theme, viewport, back button
 * and haptics. The theme is applied synchronously from the launch parameters before the
 * first paint; @telegram-apps/sdk-react (tg-sdk.ts) is loaded right after the first render and
 * does the rest. Everything tolerates running outside Telegram (a browser, component tests):
 * calls become no-ops and `telegramUser()` is null. What only the screens after the first use
 * (MainButton, sharing, invoices, drafts, closing) is in tg-native.ts, out of the first load.
 */
import type * as Sdk from './tg-sdk';
import { storeKey } from './config';
import { readableTheme } from './readable-theme';

export interface TelegramUser {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  /** The Telegram app's language (an IETF tag). */
  language_code?: string;
}

export interface Launch {
  /** Raw init data as Telegram passed it (tgWebAppData), sent as `Authorization: tma <raw>`. */
  initData?: string;
  user: TelegramUser | null;
  themeParams: Record<string, string>;
  platform?: string;
  /** The Mini Apps version the client supports ('8.0'): what it can do. */
  version?: string;
}

const STORAGE_KEY = 'workshop-tma-launch';

/** Reads tgWebApp* launch parameters from the URL (hash or query), falling back to what this tab
 * saw before (the hash is lost on in-app navigation and reloads). Lenient on purpose: the SDK's
 * own parser rejects init data from older clients, but the server is the one that checks it. */
export function readLaunch(
  loc: Pick<Location, 'hash' | 'search'> | undefined = typeof location === 'undefined' ? undefined : location,
): Launch {
  let raw = '';
  for (const part of [loc?.hash ?? '', loc?.search ?? '']) {
    const q = part.replace(/^[#?]/, '');
    if (q.includes('tgWebApp')) {
      raw = q;
      break;
    }
  }
  try {
    if (raw) sessionStorage.setItem(storeKey(STORAGE_KEY), raw);
    else raw = sessionStorage.getItem(storeKey(STORAGE_KEY)) ?? '';
  } catch {
    /* storage may be unavailable */
  }
  const params = new URLSearchParams(raw);
  const initData = params.get('tgWebAppData') || undefined;
  let user: TelegramUser | null = null;
  if (initData) {
    try {
      const u = JSON.parse(new URLSearchParams(initData).get('user') ?? 'null');
      if (u && Number.isSafeInteger(u.id) && u.id > 0) user = u;
    } catch {
      user = null;
    }
  }
  let themeParams: Record<string, string> = {};
  try {
    const tp = JSON.parse(params.get('tgWebAppThemeParams') ?? '{}');
    if (tp && typeof tp === 'object') themeParams = tp;
  } catch {
    themeParams = {};
  }
  return {
    initData,
    user,
    themeParams,
    platform: params.get('tgWebAppPlatform') ?? undefined,
    version: params.get('tgWebAppVersion') ?? undefined,
  };
}

let launch: Launch = { user: null, themeParams: {} };
let sdk: typeof Sdk | undefined;
let sdkPromise: Promise<typeof Sdk | undefined> | undefined;
const darkListeners = new Set<() => void>();
let dark = false;

export const telegramLaunch = () => launch;
export const telegramUser = () => launch.user;
export const rawInitData = () => launch.initData;
/** Inside a Telegram client: launch parameters are present. */
export const inTelegram = () => Boolean(launch.initData) || Object.keys(launch.themeParams).length > 0;
/** Telegram draws its own back button in the header; elsewhere the page shows one. */
export const hasNativeBackButton = () => inTelegram();
/** telegram-ui platform: the iOS look on Apple clients, the base look elsewhere. */
export const uiPlatform = (): 'ios' | 'base' =>
  launch.platform === 'ios' || launch.platform === 'macos' ? 'ios' : 'base';

export const isDarkTheme = () => dark;
export function subscribeDark(fn: () => void): () => void {
  darkListeners.add(fn);
  return () => darkListeners.delete(fn);
}
function setDark(next: boolean) {
  if (next === dark) return;
  dark = next;
  darkListeners.forEach((fn) => fn());
}

/** Perceived brightness of #rrggbb, as Telegram's own isColorDark. */
export function isColorDark(color: string): boolean {
  const m = /^#?([0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return false;
  const n = parseInt(m[1], 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b) < 120;
}

const cssName = (key: string) => `--tg-theme-${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/_/g, '-')}`;

/** Writes theme params as --tg-theme-* variables (the ones telegram-ui reads) and follows dark/light. */
export function applyTheme(theme: Record<string, string>) {
  const style = document.documentElement.style;
  // Text colours made readable (WCAG AA) before they are used.
  const tp = readableTheme(theme);
  for (const [key, value] of Object.entries(tp)) {
    if (typeof value === 'string' && /^#[0-9a-f]{3,8}$/i.test(value)) style.setProperty(cssName(key), value);
  }
  const bg = tp.bg_color ?? tp.bgColor;
  if (bg) {
    setDark(isColorDark(bg));
    // Amber text (queue notices and chips) that reads on this theme's background.
    style.setProperty('--app-queued-text', isColorDark(bg) ? '#fbbf24' : '#92400e');
  }
  const meta = document.querySelector('meta[name="theme-color"]');
  const header = tp.secondary_bg_color ?? tp.bg_color;
  if (meta && header) meta.setAttribute('content', header);
}

/**
 * Posts one event to the Telegram client without the SDK, the way the SDK's postEvent does: the apps'
 * webview proxy, Windows Phone's external.notify, or Telegram Web's parent frame. False when there is none.
 */
function postRaw(eventType: string, eventData?: unknown): boolean {
  const w = window as Window & {
    TelegramWebviewProxy?: { postEvent?: (type: string, data: string) => void };
    external?: { notify?: (data: string) => void };
  };
  try {
    if (w.parent !== w) {
      w.parent.postMessage(JSON.stringify({ eventType, eventData }), 'https://web.telegram.org');
    } else if (typeof w.TelegramWebviewProxy?.postEvent === 'function') {
      w.TelegramWebviewProxy.postEvent(eventType, JSON.stringify(eventData));
    } else if (typeof w.external?.notify === 'function') {
      w.external.notify(JSON.stringify({ eventType, eventData }));
    } else return false;
    return true;
  } catch {
    return false;
  }
}

/** The SDK when it has loaded; undefined before. */
export const loadedSdk = () => sdk;

/** Loads the SDK (once) and starts it; undefined when it cannot load. */
export function loadSdk(): Promise<typeof Sdk | undefined> {
  sdkPromise ??= import('./tg-sdk')
    .then((m) => {
      m.start(applyTheme);
      sdk = m;
      return m;
    })
    .catch(() => undefined);
  return sdkPromise;
}

/** Called once before the first render. */
export function initTelegram(): Launch {
  launch = readLaunch();
  if (!inTelegram()) return launch; // a plain browser: nothing to talk to
  applyTheme(launch.themeParams);
  // Telegram may show the app now (web_app_ready), without the SDK: its themed page, then the first
  // screen, whose data is asked for next (main.tsx), instead of Telegram's loading screen until then.
  postRaw('web_app_ready');
  // The SDK is not needed for the first paint: load it once the page has loaded and the first render
  // is done (the first idle moment), not in the middle of that render.
  const w = window as Window & { requestIdleCallback?: (cb: () => void) => number };
  const later = () =>
    w.requestIdleCallback ? w.requestIdleCallback(() => void loadSdk()) : setTimeout(() => void loadSdk(), 0);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
  return launch;
}

/** Runs `fn` with the SDK once it is loaded (at once when it is); a no-op outside Telegram. */
export const withSdk = (fn: (m: typeof Sdk) => void) => {
  if (!inTelegram()) return;
  if (sdk) fn(sdk);
  else void loadSdk().then((m) => m && fn(m));
};

export function haptic(kind: Sdk.HapticKind) {
  withSdk((m) => m.haptic(kind));
}

/** Shows Telegram's back button while `handler` is set; returns the cleanup. */
export function setBackButton(handler: (() => void) | null): () => void {
  if (!inTelegram()) return () => undefined;
  if (!handler) {
    withSdk((m) => m.hideBack());
    return () => undefined;
  }
  let cleanup: (() => void) | undefined;
  let cancelled = false;
  withSdk((m) => {
    if (!cancelled) cleanup = m.showBack(handler);
  });
  return () => {
    cancelled = true;
    cleanup?.();
  };
}
