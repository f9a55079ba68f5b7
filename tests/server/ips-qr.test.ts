import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { bankAccountValid } from '../../contract/money';
import type { TestApp } from '../helpers/app';
import { useTestApp } from '../helpers/use-test-app';
import { book, bookingPayload, createSession, telegramUser } from '../helpers/factories';
import { tma } from '../helpers/telegram';

let t: TestApp;
let staff: { authorization: string };
useTestApp((parts) => ({ t, staff } = parts));

const ACCOUNT = '160000000000005120';

/** The NBS IPS QR rules a bank app applies: the tags in order, each value as long as the standard allows. */
function parseIps(text: string): Record<string, string> {
  const parts = text.split('|');
  const tags = parts.map((p) => p.slice(0, p.indexOf(':')));
  expect(tags).toEqual(['K', 'V', 'C', 'R', 'N', 'I', 'SF', 'S', 'RO']);
  const v = Object.fromEntries(parts.map((p) => [p.slice(0, p.indexOf(':')), p.slice(p.indexOf(':') + 1)]));
  expect(v.K).toBe('PR');
  expect(v.V).toBe('01');
  expect(v.C).toBe('1');
  expect(v.R).toMatch(/^\d{18}$/);
  expect(bankAccountValid(v.R)).toBe(true);
  expect([...v.N].length).toBeGreaterThan(0);
  expect([...v.N].length).toBeLessThanOrEqual(70);
  expect(v.I).toMatch(/^RSD\d{1,15},\d{2}$/);
  expect(v.SF).toMatch(/^[12]\d{2}$/);
  expect([...v.S].length).toBeLessThanOrEqual(35);
  expect(v.RO.length).toBeLessThanOrEqual(25);
  // Model 97: the control digits make the reference's number leave 1 modulo 97.
  expect(v.RO).toMatch(/^97\d{2}\d+$/);
  const ref = v.RO.slice(4) + v.RO.slice(2, 4);
  expect(BigInt(ref) % 97n).toBe(1n);
  return v;
}

function decodeQr(dataUrl: string): string {
  expect(dataUrl).toMatch(/^data:image\/png;base64,/);
  const png = PNG.sync.read(Buffer.from(dataUrl.split(',')[1], 'base64'));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('no QR code in the image');
  return new TextDecoder().decode(new Uint8Array(code.binaryData));
}

describe('IPS QR transfer', () => {
  it('is refused while the studio has no account', async () => {
    const { schedule } = await createSession(t.app, staff);
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id))).json().record.id;
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/ips-qr`, headers: tma(anna) });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/переводы/);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(anna) })).json().pay,
    ).toEqual({
      telegram: false,
      ips_qr: false,
      bank_account: null,
      bank_recipient: null,
    });
  });

  it('gives the owner and staff the NBS string of what is due and its QR image, which decodes to the same text', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/business-settings/',
      headers: staff,
      payload: {
        bank_account: '160-51-20',
        bank_recipient: 'Кулинарная студия | Ресторан «Паста», Нови Сад, Булевар ослобођења 1',
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const { schedule } = await createSession(t.app, staff, { price: 3500 });
    const anna = telegramUser();
    const id = (await book(t.app, anna, bookingPayload(schedule.id, { people_count: 2 }))).json().record.id;
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/records/${id}/payments`,
      headers: staff,
      payload: { amount: 1000, method: 'cash' },
    });

    const res = await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/ips-qr`, headers: tma(anna) });
    expect(res.statusCode, res.body).toBe(200);
    const { text, image } = res.json();
    const v = parseIps(text);
    expect(v.R).toBe(ACCOUNT);
    expect(v.I).toBe('RSD6000,00');
    expect(v.SF).toBe('289');
    expect(v.N).not.toContain('|');
    expect(v.S).toBe('Мастер-класс Паста');
    expect(v.RO.slice(4)).toBe(String(id));
    expect(decodeQr(image)).toBe(text);

    const asStaff = await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}/ips-qr`, headers: staff });
    expect(asStaff.json().text).toBe(text);
    const stranger = await t.app.inject({
      method: 'GET',
      url: `/api/v1/records/${id}/ips-qr`,
      headers: tma(telegramUser()),
    });
    expect(stranger.statusCode).toBe(404);
    const view = (await t.app.inject({ method: 'GET', url: `/api/v1/records/${id}`, headers: tma(anna) })).json();
    expect(view.pay).toMatchObject({ ips_qr: true, bank_account: ACCOUNT });
  });
});
