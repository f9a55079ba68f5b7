/**
 * Telegram's own buttons, dialogs and storage for the screens after the first (the first screen needs
 * only tg.ts): MainButton and SecondaryButton, sharing, invoices, downloads, drafts, links, closing.
 * Outside Telegram each is a no-op or answers so that the page does the thing itself.
 */
import type * as Sdk from './tg-sdk';
import { storeKey } from './config';
import { inTelegram, loadSdk, loadedSdk, telegramLaunch, withSdk } from './tg';

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

/** Closes the mini-app (the Close buttons). Outside Telegram, closes a script-opened tab. */
export function closeApp() {
  if (!inTelegram()) {
    window.close();
    return;
  }
  withSdk((m) => m.close());
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
  const m = loadedSdk() ?? (await loadSdk());
  return m ? m.openInvoice(url) : null;
}

/** Whether the client supports a Mini Apps version ('8.0'): its features are used only then. */
export function clientSupports(version: string): boolean {
  const have = (telegramLaunch().version ?? '0').split('.').map(Number);
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
  const m = loadedSdk() ?? (await loadSdk());
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
    const count = Number(localStorage.getItem(storeKey(BOOKINGS_KEY)) ?? 0) + 1;
    localStorage.setItem(storeKey(BOOKINGS_KEY), String(count));
    if (count < 2 || !hasTelegramClient() || !clientSupports('8.0')) return;
    if (localStorage.getItem(storeKey(HOME_SCREEN_OFFERED_KEY))) return;
    localStorage.setItem(storeKey(HOME_SCREEN_OFFERED_KEY), '1');
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
  const m = loadedSdk() ?? (await loadSdk());
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
  const m = loadedSdk() ?? (await loadSdk());
  return m ? m.shareMessage(id) : null;
}

/** Telegram asks "close anyway?" while a filled form is open. */
export function setClosingConfirmation(need: boolean): void {
  if (!inTelegram()) return;
  withSdk((m) => m.setClosingConfirmation(need));
}
