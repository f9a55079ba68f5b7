import { afterEach, describe, expect, it, vi } from 'vitest';
import { readConfig, DEFAULT_CONFIG, resetConfig } from '../../webapp/src/config';
import { formatDate, formatPrice, formatTime, isPast, plural } from '../../contract/format';
import { isColorDark, readLaunch } from '../../webapp/src/tg';
import { ApiError, request } from '../../webapp/src/api';
import { launchHash, TG_USER } from './utils';

afterEach(() => {
  document.head.querySelectorAll('meta[name="app-config"]').forEach((m) => m.remove());
  resetConfig();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

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
    expect(readConfig()).toEqual({ businessName: 'Кухня', businessTimezone: 'Europe/Moscow', botEnabled: true });
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
});
