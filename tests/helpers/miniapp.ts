/**
 * The browser suites' Telegram: theme parameters as the iOS client sends them, init data signed
 * with the test bot token as a current client signs it, the launch hash a client opens the mini-app
 * with, and axe-core for the accessibility checks.
 */
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { TestApp } from './app';
import { TEST_BOT_TOKEN } from './telegram';

export const THEMES = {
  light: {
    bg_color: '#ffffff',
    text_color: '#000000',
    hint_color: '#8e8e93',
    link_color: '#007aff',
    button_color: '#007aff',
    button_text_color: '#ffffff',
    secondary_bg_color: '#efeff4',
    header_bg_color: '#f8f8f8',
    accent_text_color: '#007aff',
    section_bg_color: '#ffffff',
    section_header_text_color: '#6d6d72',
    subtitle_text_color: '#8e8e93',
    destructive_text_color: '#ff3b30',
  },
  dark: {
    bg_color: '#1c1c1d',
    text_color: '#ffffff',
    hint_color: '#98989e',
    link_color: '#3e88f7',
    button_color: '#3e88f7',
    button_text_color: '#ffffff',
    secondary_bg_color: '#000000',
    header_bg_color: '#1a1a1a',
    accent_text_color: '#3e88f7',
    section_bg_color: '#2c2c2e',
    section_header_text_color: '#8d8e93',
    subtitle_text_color: '#98989e',
    destructive_text_color: '#eb5545',
  },
} as const;
export type Theme = keyof typeof THEMES;
export type Platform = 'ios' | 'android' | 'tdesktop';

export interface TgUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
}

/** Init data exactly as a current Telegram client sends it (with `signature`), HMAC-signed with
 * the test bot token the way Telegram does. */
export function signedInitData(user: TgUser): string {
  const params = new URLSearchParams({
    auth_date: String(Math.floor(Date.now() / 1000)),
    query_id: `AAF${user.id}`,
    user: JSON.stringify(user),
    signature: crypto.randomBytes(64).toString('base64url'),
  });
  const check = [...params.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
  const secret = crypto.createHmac('sha256', 'WebAppData').update(TEST_BOT_TOKEN).digest();
  params.set('hash', crypto.createHmac('sha256', secret).update(check).digest('hex'));
  return params.toString();
}

/** The URL hash a Telegram client opens the mini-app with; no init data: opened outside a chat. */
export const launchHash = (initData: string | null, theme: Theme, platform: Platform = 'ios') =>
  '#' +
  new URLSearchParams({
    ...(initData ? { tgWebAppData: initData } : {}),
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: platform,
    tgWebAppThemeParams: JSON.stringify(THEMES[theme]),
  }).toString();

/** The launch hash of `user`, signed. */
export const launchHashFor = (user: TgUser, theme: Theme, platform: Platform = 'ios') =>
  launchHash(signedInitData(user), theme, platform);

interface AxeResult {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

declare global {
  /** What the pages' Telegram stand-in adds (the events the app posted, a way to send it one), and axe-core. */
  interface Window {
    __tgEvents: [string, unknown][];
    TelegramWebviewProxy: unknown;
    Telegram: { WebView: { receiveEvent(name: string, data?: unknown): void } };
    axe: {
      run(
        context: Document | { include: Element[] },
        options: object,
      ): Promise<{ violations: AxeResult[]; passes: AxeResult[] }>;
    };
  }
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * axe-core, WCAG 2.1 A/AA: the serious and critical violations on the page, or inside the elements
 * matching `selector`, readable. The page's context needs `bypassCSP` (axe is an injected script).
 * With a selector, colour contrast must have been checked there, so a check of nothing fails.
 */
export async function axeProblems(page: Page, selector?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const { checked, violations } = await page.evaluate(async (sel) => {
    const r = await window.axe.run(sel ? { include: [...document.querySelectorAll(sel)] } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return { checked: [...r.passes, ...r.violations].map((p) => p.id), violations: r.violations };
  }, selector);
  if (selector && !checked.includes('color-contrast')) throw new Error(`axe-core checked no text in ${selector}`);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary ?? v.help}`));
}

/** Three upcoming sessions of three workshops at one address, as the first-screen tests show them. */
export async function seedThreeSessions(server: Pick<TestApp, 'app' | 'auth'>): Promise<void> {
  const auth = await server.auth();
  const post = async (url: string, payload: Record<string, unknown>) => {
    const res = await server.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: auth, payload });
    if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const address = await post('/address/', {
    title: 'Нови Сад, Змај Јовина 12',
    map_link: 'https://maps.google.com/?q=1',
    description: null,
  });
  for (const [i, title] of ['Хинкали и хачапури', 'Свежая паста и соусы', 'Французские десерты'].entries()) {
    const workshop = await post('/workshops/', { title, description: null, price: 3500 });
    const date = new Date(Date.now() + (i + 2) * 86_400_000).toISOString();
    await post('/schedule/', { date, capacity: 8, workshop_id: workshop.id, address_id: address.id });
  }
}
