/**
 * The Telegram side of the mini-app: launch parameters, init data, theme, viewport, back button,
 * haptics and closing. The theme is applied synchronously from the launch parameters before the
 * first paint; @telegram-apps/sdk-react (tg-sdk.ts) is loaded right after the first render and
 * does the rest. Everything tolerates running outside Telegram (a browser, component tests):
 * calls become no-ops and `telegramUser()` is null.
 */
import type * as Sdk from './tg-sdk';
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
    if (raw) sessionStorage.setItem(STORAGE_KEY, raw);
    else raw = sessionStorage.getItem(STORAGE_KEY) ?? '';
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
/**
 * A Telegram client is listening: the mobile and desktop apps' webview proxy, or Telegram Web's
 * parent frame. Only then can Telegram's own buttons (MainButton) be used.
 */
export const hasTelegramClient = () => {
  if (!inTelegram() || typeof window === 'undefined') return false;
  const w = window as Window & { TelegramWebviewProxy?: { postEvent?: unknown }; external?: { notify?: unknown } };
  return (
    typeof w.TelegramWebviewProxy?.postEvent === 'function' ||
    typeof w.external?.notify === 'function' ||
    w.parent !== w
  );
};
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

function loadSdk(): Promise<typeof Sdk | undefined> {
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
  // The SDK is not needed for the first paint: load it as soon as the page has rendered.
  const later = () => void loadSdk();
  if (document.readyState === 'complete') setTimeout(later, 0);
  else window.addEventListener('load', later, { once: true });
  return launch;
}

const withSdk = (fn: (m: typeof Sdk) => void) => {
  if (!inTelegram()) return;
  if (sdk) fn(sdk);
  else void loadSdk().then((m) => m && fn(m));
};

export function haptic(kind: Sdk.HapticKind) {
  withSdk((m) => m.haptic(kind));
}

/** Closes the mini-app (spec: the Close buttons). Outside Telegram, closes a script-opened tab. */
export function closeApp() {
  if (!inTelegram()) {
    window.close();
    return;
  }
  withSdk((m) => m.close());
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

/** Opens an external link in Telegram's browser; false when the page should follow the link itself. */
export function openLink(url: string): boolean {
  if (!inTelegram() || !/^https?:\/\//i.test(url)) return false;
  withSdk((m) => m.openLink(url));
  return true;
}

/** Opens a Telegram invoice (createInvoiceLink's URL) and resolves with its status; null outside Telegram. */
export async function openInvoice(url: string): Promise<string | null> {
  if (!inTelegram()) return null;
  const m = sdk ?? (await loadSdk());
  return m ? m.openInvoice(url) : null;
}

/** Whether the client supports a Mini Apps version ('8.0'): its features are used only then. */
export function clientSupports(version: string): boolean {
  const have = (launch.version ?? '0').split('.').map(Number);
  const want = version.split('.').map(Number);
  for (let i = 0; i < Math.max(have.length, want.length); i++) {
    const d = (have[i] ?? 0) - (want[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** Telegram's download dialog for a file (clients of Mini Apps 8.0+); false elsewhere (the caller opens the link). */
export async function downloadFile(url: string, fileName: string): Promise<boolean> {
  if (!inTelegram() || !clientSupports('8.0') || !url.startsWith('https://')) return false;
  const m = sdk ?? (await loadSdk());
  return m ? m.downloadFile(url, fileName) : false;
}

const BOOKINGS_KEY = 'workshop-tma-bookings';
const HOME_SCREEN_OFFERED_KEY = 'workshop-tma-home-screen-offered';

/**
 * Counts the bookings made on this device; after the second one, Telegram's "add to home screen" is
 * offered once (clients of Mini Apps 8.0+): a returning customer then opens the studio in one tap.
 */
export function bookingMade(): void {
  try {
    const count = Number(localStorage.getItem(BOOKINGS_KEY) ?? 0) + 1;
    localStorage.setItem(BOOKINGS_KEY, String(count));
    if (count < 2 || !hasTelegramClient() || !clientSupports('8.0')) return;
    if (localStorage.getItem(HOME_SCREEN_OFFERED_KEY)) return;
    localStorage.setItem(HOME_SCREEN_OFFERED_KEY, '1');
  } catch {
    return; // no storage: never offered rather than offered every time
  }
  withSdk((m) => m.offerHomeScreen());
}

/** A draft kept on the device by Telegram (DeviceStorage, Mini Apps 9.0+), so a closed mini-app reopens with it. */
const hasDeviceStorage = () => hasTelegramClient() && clientSupports('9.0');

/** The stored draft under `key`; null when there is none or the client has no DeviceStorage. */
export async function loadDraft(key: string): Promise<string | null> {
  if (!hasDeviceStorage()) return null;
  const m = sdk ?? (await loadSdk());
  return m ? m.deviceStorageGet(key) : null;
}

/** Keeps (or with null, forgets) the draft under `key`; a no-op without DeviceStorage. */
export function saveDraft(key: string, value: string | null): void {
  if (hasDeviceStorage()) withSdk((m) => m.deviceStorageSet(key, value));
}

/** Opens a t.me link inside Telegram (e.g. the share sheet); false outside Telegram (the page follows the link). */
export function openTelegramLink(url: string): boolean {
  if (!inTelegram() || !url.startsWith('https://t.me/')) return false;
  withSdk((m) => m.openTgLink(url));
  return true;
}

/** The theme's (readable) button colours, for Telegram's MainButton. */
const buttonColors = () => {
  const style = document.documentElement.style;
  const color = style.getPropertyValue('--tg-theme-button-color').trim();
  const textColor = style.getPropertyValue('--tg-theme-button-text-color').trim();
  return { ...(color && { color }), ...(textColor && { textColor }) };
};

/** Shows Telegram's MainButton with this state (null hides it); a no-op outside Telegram. */
export function setMainButton(state: Omit<Sdk.MainButtonState, 'color' | 'textColor'> | null): void {
  if (!inTelegram()) return;
  withSdk((m) => m.setMainButton(state && { ...state, ...buttonColors() }));
}

/** Calls `handler` when Telegram's MainButton is pressed; returns the cleanup. */
export function onMainButton(handler: () => void): () => void {
  if (!inTelegram()) return () => undefined;
  let off: (() => void) | undefined;
  let cancelled = false;
  withSdk((m) => {
    if (!cancelled) off = m.onMainButton(handler);
  });
  return () => {
    cancelled = true;
    off?.();
  };
}

/** Telegram's SecondaryButton beside the MainButton (clients of Mini Apps 7.10+); elsewhere the page's own button. */
export const hasSecondaryButton = () => hasTelegramClient() && clientSupports('7.10');

/** Shows Telegram's SecondaryButton with this state (null hides it); a no-op where it cannot be shown. */
export function setSecondaryButton(state: Sdk.MainButtonState | null): void {
  // Telegram's own colours for a secondary action: it reads as less than the MainButton.
  if (hasSecondaryButton()) withSdk((m) => m.setSecondaryButton(state));
}

/** Calls `handler` when Telegram's SecondaryButton is pressed; returns the cleanup. */
export function onSecondaryButton(handler: () => void): () => void {
  if (!hasSecondaryButton()) return () => undefined;
  let off: (() => void) | undefined;
  let cancelled = false;
  withSdk((m) => {
    if (!cancelled) off = m.onSecondaryButton(handler);
  });
  return () => {
    cancelled = true;
    off?.();
  };
}

/** Telegram's own share dialog for a prepared message (clients of Mini Apps 8.0+). */
export const canShareMessage = () => hasTelegramClient() && clientSupports('8.0');

/**
 * Opens Telegram's dialog to send a message the bot prepared (savePreparedInlineMessage) to a chat the
 * customer picks: true when sent, false when closed or failed, null where the client cannot (the caller
 * falls back to the link).
 */
export async function shareMessage(id: string): Promise<boolean | null> {
  if (!canShareMessage()) return null;
  const m = sdk ?? (await loadSdk());
  return m ? m.shareMessage(id) : null;
}

/** Telegram asks "close anyway?" while a filled form is open. */
export function setClosingConfirmation(need: boolean): void {
  if (!inTelegram()) return;
  withSdk((m) => m.setClosingConfirmation(need));
}
