import { afterEach, describe, expect, it, vi } from 'vitest';
import { readConfig, DEFAULT_CONFIG, resetConfig, storeKey, withBase } from '../../webapp/src/config';
import { parseAppConfig, storageKey, underBase } from '../../contract/app-config';
import { formatDate, formatPrice, formatTime, isPast, plural } from '../../contract/format';
import { isColorDark, readLaunch } from '../../webapp/src/tg';
import { ApiError, request } from '../../webapp/src/api';
import { launchHash, TG_USER } from './utils';

afterEach(() => {
  document.head.querySelectorAll('meta[name="app-config"]').forEach((m) => m.remove());
  resetConfig();
  sessionStorage.clear();
  localStorage.clear();
  vi.unstubAllGlobals();
});

/** The server's <meta name="app-config"> with `values`, for the page's config() to read afresh. */
function injectConfig(values: Record<string, unknown>) {
  document.head.querySelectorAll('meta[name="app-config"]').forEach((m) => m.remove());
  const meta = document.createElement('meta');
  meta.name = 'app-config';
  meta.content = JSON.stringify(values);
  document.head.append(meta);
  resetConfig();
}

describe('config', () => {
  it('defaults when the server injected nothing or garbage', () => {
    expect(readConfig()).toEqual(DEFAULT_CONFIG);
    const meta = document.createElement('meta');
    meta.name = 'app-config';
    meta.content = '{oops';
    document.head.append(meta);
    expect(readConfig()).toEqual(DEFAULT_CONFIG);
  });
  it('reads the injected meta', () => {
    const meta = document.createElement('meta');
    meta.name = 'app-config';
    meta.content = JSON.stringify({ businessName: 'Кухня', businessTimezone: 'Europe/Moscow', botEnabled: true });
    document.head.append(meta);
    expect(readConfig()).toEqual({
      businessName: 'Кухня',
      businessTimezone: 'Europe/Moscow',
      botEnabled: true,
      basePath: '',
    });
  });
});

describe('AppConfig.basePath', () => {
  const basePath = (v: unknown) => parseAppConfig(JSON.stringify({ basePath: v })).basePath;

  it("is '' by default, and for JSON that is no object", () => {
    expect(DEFAULT_CONFIG.basePath).toBe('');
    expect(parseAppConfig(null).basePath).toBe('');
    expect(parseAppConfig('{}').basePath).toBe('');
    expect(parseAppConfig('null')).toEqual(DEFAULT_CONFIG);
    expect(parseAppConfig('5')).toEqual(DEFAULT_CONFIG);
  });
  it("accepts '' and /s/<slug> of 2 to 40 lower-case letters, digits and hyphens", () => {
    for (const good of ['', '/s/pekarnya', '/s/demo', '/s/a1', '/s/0-studio', '/s/studio-2', `/s/a${'b'.repeat(39)}`])
      expect(basePath(good), good).toBe(good);
  });
  it("turns anything else into ''", () => {
    for (const bad of [
      '/',
      '/s',
      '/s/',
      '/s/a', // a one-letter slug
      `/s/a${'b'.repeat(40)}`, // 41 characters
      '/s/-studio', // starts with a hyphen
      '/s/Pekarnya',
      '/s/pekarnya/',
      '/s/pek/arnya',
      '/s/pek arnya',
      '/s/pekarnya?x=1',
      '/s/pekarnya#x',
      '/s/пекарня',
      's/pekarnya',
      '/x/pekarnya',
      '//evil.example/s/pekarnya',
      'https://evil.example/s/pekarnya',
      '/s/pekarnya\n',
      ' /s/pekarnya',
      '/s/../admin',
      null,
      5,
      true,
      ['/s/pekarnya'],
      { path: '/s/pekarnya' },
    ])
      expect(basePath(bad), JSON.stringify(bad)).toBe('');
  });
  it('keeps the other fields when the prefix is bad', () => {
    expect(parseAppConfig(JSON.stringify({ businessName: 'Кухня', botEnabled: true, basePath: '/S/X' }))).toEqual({
      ...DEFAULT_CONFIG,
      businessName: 'Кухня',
      botEnabled: true,
      basePath: '',
    });
  });
  it('prefixes root-relative paths only, and storage keys only under a prefix', () => {
    expect(underBase('/s/demo', '/api/v1/records/1/calendar.ics?sig=x')).toBe(
      '/s/demo/api/v1/records/1/calendar.ics?sig=x',
    );
    expect(underBase('/s/demo', '/gift/AB-CD?lang=ru')).toBe('/s/demo/gift/AB-CD?lang=ru');
    expect(underBase('/s/demo', 'https://t.me/x')).toBe('https://t.me/x');
    expect(underBase('/s/demo', '//host/x')).toBe('//host/x');
    expect(underBase('', '/gift/AB-CD')).toBe('/gift/AB-CD');
    expect(storageKey('', 'access_token')).toBe('access_token');
    expect(storageKey('/s/a1', 'access_token')).not.toBe(storageKey('/s/b2', 'access_token'));
    expect(storageKey('/s/a1', 'access_token')).not.toBe('access_token');
  });
  it("the mini-app's paths and storage keys follow the page's prefix", () => {
    injectConfig({ basePath: '/s/demo' });
    expect(withBase('/apply')).toBe('/s/demo/apply');
    expect(storeKey('workshop-language')).toBe(storageKey('/s/demo', 'workshop-language'));
    injectConfig({});
    expect(withBase('/apply')).toBe('/apply');
    expect(storeKey('workshop-language')).toBe('workshop-language');
  });
});

describe('format', () => {
  it('d/MM/y and H:mm in Europe/Belgrade, price in RSD, past', () => {
    const tz = 'Europe/Belgrade';
    expect(formatDate('2030-01-05T08:05:00.000Z', tz)).toBe('5/01/2030');
    expect(formatTime('2030-01-05T08:05:00.000Z', tz)).toBe('9:05');
    expect(formatDate('2030-06-30T22:30:00.000Z', tz)).toBe('1/07/2030'); // past midnight in Belgrade
    expect(formatPrice(3500)).toBe('3\u00a0500\u00a0RSD');
    expect(isPast('2020-01-01T00:00:00Z')).toBe(true);
    expect(isPast('2999-01-01T00:00:00Z')).toBe(false);
    expect([1, 2, 5, 11, 21, 22].map((n) => plural(n, ['место', 'места', 'мест']))).toEqual([
      'место',
      'места',
      'мест',
      'мест',
      'место',
      'места',
    ]);
  });
});

describe('Telegram launch parameters', () => {
  it('reads init data, user, theme and platform from the hash, and remembers them for the tab', () => {
    const l = readLaunch({ hash: launchHash({ theme: { bg_color: '#17212b' } }), search: '' });
    expect(l.user).toEqual(TG_USER);
    expect(l.initData).toMatch(/^auth_date=/);
    expect(l.platform).toBe('ios');
    expect(l.themeParams.bg_color).toBe('#17212b');
    expect(readLaunch({ hash: '', search: '' }).user).toEqual(TG_USER);
    expect(isColorDark('#17212b')).toBe(true);
    expect(isColorDark('#ffffff')).toBe(false);
  });
  it('no launch parameters: no user', () => {
    expect(readLaunch({ hash: '', search: '' })).toEqual({
      initData: undefined,
      user: null,
      themeParams: {},
      platform: undefined,
    });
  });
});

describe('api', () => {
  it('turns error bodies into ApiError with the detail, or the default status text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ detail: 'Сеанс уже прошёл' }), { status: 409 })),
    );
    await expect(request('GET', '/x')).rejects.toEqual(new ApiError(409, 'Сеанс уже прошёл'));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 503 })),
    );
    await expect(request('GET', '/x')).rejects.toMatchObject({ status: 503, detail: 'Service Unavailable' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(request('GET', '/x')).rejects.toMatchObject({ status: 0 });
  });
  it("calls the API under the studio's prefix with that studio's staff token only", async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const sent = () => {
      const [url, init] = fetchMock.mock.calls.at(-1)!;
      return { url, authorization: (init?.headers as Record<string, string>).Authorization };
    };
    localStorage.setItem('access_token', 'root-token');
    localStorage.setItem(storageKey('/s/other', 'access_token'), 'other-token');

    injectConfig({ basePath: '/s/demo' });
    await request('GET', '/schedule/public');
    expect(sent()).toEqual({ url: '/s/demo/api/v1/schedule/public', authorization: undefined });
    localStorage.setItem(storageKey('/s/demo', 'access_token'), 'demo-token');
    await request('GET', '/schedule/public');
    expect(sent()).toEqual({ url: '/s/demo/api/v1/schedule/public', authorization: 'Bearer demo-token' });

    injectConfig({});
    await request('GET', '/schedule/public');
    expect(sent()).toEqual({ url: '/api/v1/schedule/public', authorization: 'Bearer root-token' });
  });
  it('remembers the Telegram launch per prefix', () => {
    injectConfig({ basePath: '/s/demo' });
    readLaunch({ hash: launchHash(), search: '' });
    expect(readLaunch({ hash: '', search: '' }).user).toEqual(TG_USER);
    injectConfig({ basePath: '/s/other' });
    expect(readLaunch({ hash: '', search: '' }).user).toBeNull();
  });
});
