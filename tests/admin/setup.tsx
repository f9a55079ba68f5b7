import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { SWRConfig } from 'swr';
import { afterEach, vi } from 'vitest';
import { theme } from '../../admin/src/theme';

// Mantine in happy-dom needs matchMedia and ResizeObserver.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
if (!('ResizeObserver' in window)) {
  class ResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  for (const scope of [window, globalThis])
    Object.defineProperty(scope, 'ResizeObserver', { value: ResizeObserver, writable: true, configurable: true });
}
// happy-dom may lack document.fonts, which the lib's Document type always has.
const fontsOf: Partial<Pick<Document, 'fonts'>> = document;
if (!fontsOf.fonts) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined, ready: Promise.resolve() },
  });
}
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** Renders inside the providers of admin/src/main.tsx, with a fresh SWR cache. */
export function renderAdmin(ui: ReactNode) {
  return render(
    <MantineProvider theme={theme}>
      <Notifications position="bottom-right" />
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}>{ui}</SWRConfig>
    </MantineProvider>,
  );
}

export interface Call {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}
type Reply = { status?: number; body?: unknown };
type Handler = (call: Call) => Reply | Promise<Reply>;

/** Replaces fetch with a small router: 'POST /workshops/' → handler. Unknown routes answer 404. */
export function mockApi(routes: Record<string, Handler | Reply>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const path = String(url).replace(/^\/api\/v1/, '');
    const raw = init.body ? String(init.body) : undefined;
    let body: unknown = raw;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const call: Call = {
      method: init.method ?? 'GET',
      path,
      body,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const route = routes[`${call.method} ${path}`];
    const res: Reply =
      route === undefined
        ? { status: 404, body: { detail: 'Not Found' } }
        : typeof route === 'function'
          ? await route(call)
          : route;
    return new Response(res.body === undefined ? null : JSON.stringify(res.body), {
      status: res.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const isDisabled = (el: HTMLElement) =>
  (el as HTMLButtonElement).disabled || el.getAttribute('data-disabled') === 'true';
