import type { InlineKeyboardButton, InlineKeyboardMarkup } from 'grammy/types';
import { texts } from '../texts';

/**
 * Buttons that open the mini-app. Telegram accepts web-app (and menu) buttons only for https
 * URLs, so with an http PUBLIC_URL (local development) they are left out; the runtime says so
 * once in the log.
 */
export const webAppsEnabled = (publicUrl: string) => publicUrl.startsWith('https://');

export function webAppButton(publicUrl: string, text: string, path: string): InlineKeyboardButton | null {
  return webAppsEnabled(publicUrl) ? { text, web_app: { url: `${publicUrl}${path}` } } : null;
}

/** A plain link (the staff admin is a web page, not a mini-app); https only, like web apps. */
export function urlButton(publicUrl: string, text: string, path: string): InlineKeyboardButton | null {
  return webAppsEnabled(publicUrl) ? { text, url: `${publicUrl}${path}` } : null;
}

/** "Моя запись": the customer's booking page `/record/{id}`. */
export const recordButton = (publicUrl: string, recordId: number, text = texts.customer.buttons.myRecord) =>
  webAppButton(publicUrl, text, `/record/${recordId}`);

/** The booking wizard `/apply`. */
export const applyButton = (publicUrl: string, text = texts.customer.buttons.apply) =>
  webAppButton(publicUrl, text, '/apply');

/** Rows of buttons without the left-out ones; undefined when nothing is left. */
export function inlineKeyboard(rows: (InlineKeyboardButton | null)[][]): InlineKeyboardMarkup | undefined {
  const clean = rows.map((r) => r.filter((b): b is InlineKeyboardButton => b !== null)).filter((r) => r.length > 0);
  return clean.length > 0 ? { inline_keyboard: clean } : undefined;
}
