/**
 * The @telegram-apps/sdk-react half of tg.ts, loaded right after the first render so the SDK
 * (and its validation library) stays out of the first load. Only tg.ts imports this module.
 */
import {
  bindMiniAppCssVars,
  bindViewportCssVars,
  closeMiniApp,
  downloadFile as sdkDownloadFile,
  expandViewport,
  hapticFeedbackImpactOccurred,
  hapticFeedbackNotificationOccurred,
  hapticFeedbackSelectionChanged,
  hideBackButton,
  init as initSdk,
  isTMA,
  mountBackButton,
  mountMiniAppSync,
  mountThemeParamsSync,
  mountViewport,
  on,
  onBackButtonClick,
  openInvoice as sdkOpenInvoice,
  openLink as sdkOpenLink,
  openTelegramLink as sdkOpenTelegramLink,
  postEvent,
  setMiniAppBackgroundColor,
  setMiniAppHeaderColor,
  showBackButton,
} from '@telegram-apps/sdk-react';

export type HapticKind = 'success' | 'error' | 'warning' | 'light' | 'medium' | 'selection';

/** Swallows "not available in this client" errors, sync or async. */
function attempt(fn: () => unknown): boolean {
  try {
    const r = fn();
    if (r && typeof (r as Promise<unknown>).catch === 'function') (r as Promise<unknown>).catch(() => undefined);
    if (Array.isArray(r)) return Boolean(r[0]);
    return true;
  } catch {
    return false;
  }
}

/** True when the SDK accepted the launch parameters (full API); otherwise raw bridge events. */
let full = false;

export function start(onTheme: (tp: Record<string, string>) => void): void {
  try {
    initSdk();
  } catch {
    return;
  }
  attempt(() => on('theme_changed', ({ theme_params }) => onTheme(theme_params as Record<string, string>)));
  full = attempt(() => isTMA()) && isTMA();
  if (full) {
    attempt(() => mountThemeParamsSync.ifAvailable());
    // No bindThemeParamsCssVars: tg.ts writes the --tg-theme-* variables itself, made readable (theme_changed above).
    attempt(() => mountMiniAppSync.ifAvailable());
    attempt(() => bindMiniAppCssVars.ifAvailable());
    attempt(() => setMiniAppHeaderColor.ifAvailable('secondary_bg_color'));
    attempt(() => setMiniAppBackgroundColor.ifAvailable('secondary_bg_color'));
    attempt(() => mountBackButton.ifAvailable());
    attempt(() => {
      const [called, p] = mountViewport.ifAvailable();
      if (called)
        void (p as Promise<void>)
          .then(() => {
            attempt(() => bindViewportCssVars.ifAvailable());
            attempt(() => expandViewport.ifAvailable());
          })
          .catch(() => undefined);
    });
    // web_app_ready: tg.ts posted it before the first render, before this module loaded.
  } else {
    attempt(() => postEvent('web_app_set_header_color', { color_key: 'secondary_bg_color' }));
    attempt(() => postEvent('web_app_expand'));
  }
}

export function haptic(kind: HapticKind): void {
  if (kind === 'selection')
    attempt(() =>
      full
        ? hapticFeedbackSelectionChanged.ifAvailable()
        : postEvent('web_app_trigger_haptic_feedback', { type: 'selection_change' }),
    );
  else if (kind === 'light' || kind === 'medium')
    attempt(() =>
      full
        ? hapticFeedbackImpactOccurred.ifAvailable(kind)
        : postEvent('web_app_trigger_haptic_feedback', { type: 'impact', impact_style: kind }),
    );
  else
    attempt(() =>
      full
        ? hapticFeedbackNotificationOccurred.ifAvailable(kind)
        : postEvent('web_app_trigger_haptic_feedback', { type: 'notification', notification_type: kind }),
    );
}

export function close(): void {
  if (full && attempt(() => closeMiniApp.ifAvailable())) return;
  attempt(() => postEvent('web_app_close'));
}

export function showBack(handler: () => void): () => void {
  let off: (() => void) | undefined;
  if (full) {
    attempt(() => showBackButton.ifAvailable());
    attempt(() => {
      const [called, unsub] = onBackButtonClick.ifAvailable(handler);
      if (called) off = unsub as () => void;
    });
  } else {
    attempt(() => postEvent('web_app_setup_back_button', { is_visible: true }));
    attempt(() => {
      off = on('back_button_pressed', handler);
    });
  }
  return () => {
    off?.();
    hideBack();
  };
}

export function hideBack(): void {
  attempt(() => (full ? hideBackButton.ifAvailable() : postEvent('web_app_setup_back_button', { is_visible: false })));
}

export function openLink(url: string): void {
  if (full && attempt(() => sdkOpenLink.ifAvailable(url))) return;
  if (!attempt(() => postEvent('web_app_open_link', { url }))) window.open(url, '_blank', 'noopener');
}

/** Opens a Telegram invoice link over the mini-app; resolves with its status (paid, cancelled, failed, pending). */
export async function openInvoice(url: string): Promise<string> {
  if (full && sdkOpenInvoice.isAvailable()) return sdkOpenInvoice(url, 'url');
  // Without the full SDK: the raw bridge call and its closing event.
  const slug = url.replace(/^https:\/\/t\.me\/(?:\$|invoice\/)/, '');
  return new Promise((resolve) => {
    const off = on('invoice_closed', (e) => {
      if (e.slug !== slug) return;
      off();
      resolve(e.status);
    });
    if (!attempt(() => postEvent('web_app_open_invoice', { slug }))) {
      off();
      resolve('failed');
    }
  });
}

/** Telegram's own download dialog; the caller checked that the client has it (Mini Apps 8.0+). */
export function downloadFile(url: string, fileName: string): boolean {
  if (full && sdkDownloadFile.isAvailable()) return attempt(() => sdkDownloadFile(url, fileName));
  return attempt(() => postEvent('web_app_request_file_download', { url, file_name: fileName }));
}

/** Asks Telegram whether the app is on the home screen and, unless it is there or cannot be, offers to add it. */
export function offerHomeScreen(): void {
  const off = on('home_screen_checked', (e) => {
    off();
    if (e.status === 'missed' || e.status === 'unknown') attempt(() => postEvent('web_app_add_to_home_screen'));
  });
  if (!attempt(() => postEvent('web_app_check_home_screen'))) off();
}

let storageRequests = 0;

/** A key of Telegram's DeviceStorage (Mini Apps 9.0+): its value, or null when there is none or the client fails. */
export function deviceStorageGet(key: string): Promise<string | null> {
  const req_id = `ds${++storageRequests}`;
  return new Promise((resolve) => {
    const done = (value: string | null) => {
      offs.forEach((off) => off());
      resolve(value);
    };
    const offs = [
      on('device_storage_key_received', (e) => e.req_id === req_id && done(e.value ?? null)),
      on('device_storage_failed', (e) => e.req_id === req_id && done(null)),
    ];
    if (!attempt(() => postEvent('web_app_device_storage_get_key', { req_id, key }))) done(null);
  });
}

/** Stores a key in Telegram's DeviceStorage; null removes it. */
export function deviceStorageSet(key: string, value: string | null): void {
  attempt(() => postEvent('web_app_device_storage_save_key', { req_id: `ds${++storageRequests}`, key, value }));
}

export function openTgLink(url: string): void {
  if (full && attempt(() => sdkOpenTelegramLink.ifAvailable(url))) return;
  const path_full = url.replace(/^https:\/\/t\.me/, '');
  if (!attempt(() => postEvent('web_app_open_tg_link', { path_full }))) window.open(url, '_blank', 'noopener');
}

export interface MainButtonState {
  text: string;
  active: boolean;
  progress: boolean;
  color?: string;
  textColor?: string;
}

/** Telegram's MainButton (the primary action under the mini-app); null hides it. */
export function setMainButton(s: MainButtonState | null): void {
  attempt(() =>
    postEvent(
      'web_app_setup_main_button',
      s
        ? {
            is_visible: true,
            is_active: s.active,
            is_progress_visible: s.progress,
            text: s.text,
            ...(s.color && { color: s.color as `#${string}` }),
            ...(s.textColor && { text_color: s.textColor as `#${string}` }),
          }
        : { is_visible: false },
    ),
  );
}

export function onMainButton(handler: () => void): () => void {
  let off: (() => void) | undefined;
  attempt(() => {
    off = on('main_button_pressed', handler);
  });
  return () => off?.();
}

/** Telegram's SecondaryButton (Mini Apps 7.10+), to the left of the MainButton; null hides it. */
export function setSecondaryButton(s: MainButtonState | null): void {
  attempt(() =>
    postEvent(
      'web_app_setup_secondary_button',
      s
        ? {
            is_visible: true,
            is_active: s.active,
            is_progress_visible: s.progress,
            text: s.text,
            position: 'left',
            ...(s.color && { color: s.color as `#${string}` }),
            ...(s.textColor && { text_color: s.textColor as `#${string}` }),
          }
        : { is_visible: false },
    ),
  );
}

export function onSecondaryButton(handler: () => void): () => void {
  let off: (() => void) | undefined;
  attempt(() => {
    off = on('secondary_button_pressed', handler);
  });
  return () => off?.();
}

/**
 * Telegram's share dialog for a message the bot prepared (Mini Apps 8.0+): resolves true when the
 * customer sent it, false when they closed the dialog or it failed.
 */
export function shareMessage(id: string): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (sent: boolean) => {
      offs.forEach((off) => off());
      resolve(sent);
    };
    const offs = [on('prepared_message_sent', () => done(true)), on('prepared_message_failed', () => done(false))];
    if (!attempt(() => postEvent('web_app_send_prepared_message', { id }))) done(false);
  });
}

/** Telegram asks before closing the mini-app while `need` is set (a filled form). */
export function setClosingConfirmation(need: boolean): void {
  attempt(() => postEvent('web_app_setup_closing_behavior', { need_confirmation: need }));
}
