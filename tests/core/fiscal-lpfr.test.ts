import jsQR from 'jsqr';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLpfr } from '../../core/fiscal/lpfr';
import { FiscalPinRequired, FiscalRefused, FiscalUnreachable, type FiscalPort } from '../../core/fiscal/port';
import type { InvoiceRequest, InvoiceResult } from '../../core/fiscal/protocol';
import { startFakePfr, type FakePfr } from '../helpers/fake-pfr';

/*
 * The `lpfr` adapter against the fake PFR on loopback: what the studio's device answers, and every way
 * it fails, as the port's three errors. No database: the adapter is HTTP only.
 */

let pfr: FakePfr;
let port: FiscalPort;

const sale = (over: Partial<InvoiceRequest> = {}): InvoiceRequest => ({
  invoiceType: 'Normal',
  transactionType: 'Sale',
  cashier: 'Ана',
  payment: [{ amount: 3000, paymentType: 'Cash' }],
  items: [{ name: 'Мастер-класс: паста', quantity: 1, unitPrice: 3000, labels: ['Ђ'], totalAmount: 3000 }],
  ...over,
});

const refundOf = (original: InvoiceResult, over: Partial<InvoiceRequest> = {}): InvoiceRequest =>
  sale({
    transactionType: 'Refund',
    buyerId: '20:123456789',
    referentDocumentNumber: original.invoiceNumber,
    referentDocumentDT: original.sdcDateTime,
    ...over,
  });

let nextId = 1;
const requestId = () => `req${String(nextId++).padStart(29, '0')}`;

async function caught(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
}

/** The pixels of a GIF (one image, global palette), as RGBA: enough to read the PFR's QR code. */
function gifToRgba(gif: Buffer): { data: Uint8ClampedArray; width: number; height: number } {
  expect(gif.subarray(0, 6).toString()).toMatch(/^GIF8[79]a$/);
  const width = gif.readUInt16LE(6);
  const height = gif.readUInt16LE(8);
  const packed = gif[10];
  const paletteSize = packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0;
  const palette = gif.subarray(13, 13 + paletteSize);
  let i = 13 + paletteSize;
  while (gif[i] === 0x21) {
    i += 2;
    while (gif[i] !== 0) i += gif[i] + 1;
    i++;
  }
  expect(gif[i]).toBe(0x2c);
  i += 10;
  const minSize = gif[i++];
  const data: number[] = [];
  while (gif[i] !== 0) {
    data.push(...gif.subarray(i + 1, i + 1 + gif[i]));
    i += gif[i] + 1;
  }
  const clear = 1 << minSize;
  const end = clear + 1;
  let size = minSize + 1;
  let table: number[][] = [];
  const resetTable = () => {
    table = Array.from({ length: clear + 2 }, (_, k) => [k]);
    size = minSize + 1;
  };
  resetTable();
  const out: number[] = [];
  let prev: number[] | null = null;
  let bit = 0;
  while (bit + size <= data.length * 8) {
    let code = 0;
    for (let b = 0; b < size; b++, bit++) code |= ((data[bit >> 3] >> (bit & 7)) & 1) << b;
    if (code === clear) {
      resetTable();
      prev = null;
      continue;
    }
    if (code === end) break;
    const entry: number[] = code < table.length ? table[code] : [...prev!, prev![0]];
    out.push(...entry);
    if (prev) table.push([...prev, entry[0]]);
    prev = entry;
    if (table.length === 1 << size && size < 12) size++;
  }
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    rgba.set([palette[out[p] * 3], palette[out[p] * 3 + 1], palette[out[p] * 3 + 2], 255], p * 4);
  }
  return { data: rgba, width, height };
}

beforeAll(async () => {
  pfr = await startFakePfr();
  port = createLpfr({ url: pfr.url, timeoutMs: 2000 });
});
afterAll(() => pfr.close());
beforeEach(() => pfr.reset());

describe('status and environment', () => {
  it('answers attention, and the current tax rates with their labels', async () => {
    expect(await port.attention()).toBe(true);
    const status = await port.status();
    expect(status.isPinRequired).toBe(false);
    expect(status.gsc).toContain('0000');
    const rates = status.currentTaxRates.taxCategories.flatMap((c) => c.taxRates.map((r) => `${r.label} ${r.rate}`));
    expect(rates).toEqual(['Ђ 20', 'Е 10', 'Г 0', 'А 0']);
    const env = await port.environment();
    expect(env.country).toBe('RS');
    expect(pfr.requests.every((r) => r.acceptLanguage === 'sr-Cyrl-RS')).toBe(true);
  });

  it('says false for attention when nothing listens, and unreachable-not-sent for a request', async () => {
    const gone = await startFakePfr();
    const url = gone.url;
    await gone.close();
    const dead = createLpfr({ url, timeoutMs: 1000 });
    expect(await dead.attention()).toBe(false);
    const err = await caught(dead.issue(requestId(), sale()));
    expect(err).toBeInstanceOf(FiscalUnreachable);
    expect((err as FiscalUnreachable).maybeSent).toBe(false);
  });
});

describe('PIN', () => {
  it('refuses receipts while the PIN is required; a wrong PIN keeps it locked, the right one unlocks', async () => {
    pfr.pinRequired = true;
    const status = await port.status();
    expect(status.isPinRequired).toBe(true);
    expect(status.gsc).toContain('1500');
    expect(await caught(port.issue(requestId(), sale()))).toBeInstanceOf(FiscalPinRequired);

    expect(await port.pin('0000')).toBe('2100');
    expect(await caught(port.issue(requestId(), sale()))).toBeInstanceOf(FiscalPinRequired);

    expect(await port.pin('1234')).toBe('0100');
    expect((await port.status()).isPinRequired).toBe(false);
    const receipt = await port.issue(requestId(), sale());
    expect(receipt.invoiceNumber).toBe('TESTPFR1-TESTPFR1-1');
    expect(pfr.invoices).toHaveLength(1);
  });

  it('locks the secure element after too many wrong PINs: the receipt waits, the right PIN no longer helps', async () => {
    const strict = await startFakePfr({ pinRequired: true, pinAttempts: 3 });
    try {
      const device = createLpfr({ url: strict.url });
      expect(await device.pin('1111')).toBe('2100');
      expect(await device.pin('2222')).toBe('2100');
      expect(await device.pin('3333')).toBe('2110');
      expect(await device.pin('1234')).toBe('2110');
      const err = await caught(device.issue(requestId(), sale()));
      expect(err).toBeInstanceOf(FiscalUnreachable);
      expect((err as FiscalUnreachable).maybeSent).toBe(false);
      expect(strict.invoices).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it('never puts the PIN in an error', async () => {
    const gone = await startFakePfr();
    await gone.close();
    const err = await caught(createLpfr({ url: gone.url }).pin('987654'));
    expect(err).toBeInstanceOf(FiscalUnreachable);
    expect(err.message).not.toContain('987654');
  });
});

describe('issuing', () => {
  it('returns the signed receipt: numbers, counters by type, tax, journal, verification URL and its QR code', async () => {
    const id = requestId();
    const receipt = await port.issue(id, sale());
    expect(receipt).toMatchObject({
      requestedBy: 'TESTPFR1',
      signedBy: 'TESTPFR1',
      invoiceNumber: 'TESTPFR1-TESTPFR1-1',
      invoiceCounter: '1/1ПП',
      invoiceCounterExtension: 'ПП',
      totalCounter: 1,
      transactionTypeCounter: 1,
      totalAmount: 3000,
      taxItems: [{ label: 'Ђ', rate: 20, amount: 500 }],
    });
    expect(pfr.requests.find((r) => r.method === 'POST')?.requestId).toBe(id);
    expect(receipt.journal).toContain('Кулинарски студио ДОО');
    expect(receipt.journal).toContain('Мастер-класс: паста (Ђ)');
    expect(receipt.journal).toContain('Готовина:');
    expect(receipt.journal).toContain('3.000,00');
    expect(receipt.journal).toContain('ФИСКАЛНИ РАЧУН');
    expect(receipt.journal).not.toContain('ОВО НИЈЕ');

    const image = gifToRgba(Buffer.from(receipt.verificationQRCode!, 'base64'));
    expect(jsQR(image.data, image.width, image.height)?.data).toBe(receipt.verificationUrl);

    const advance = await port.issue(
      requestId(),
      sale({
        invoiceType: 'Advance',
        payment: [{ amount: 1000, paymentType: 'WireTransfer' }],
        items: [{ name: 'Аванс', quantity: 1, unitPrice: 1000, labels: ['Ђ'], totalAmount: 1000 }],
      }),
    );
    expect(advance.invoiceCounter).toBe('1/2АП');
    const refund = await port.issue(requestId(), refundOf(receipt));
    expect(refund.invoiceCounter).toBe('1/3ПР');
    expect(refund.journal).toContain('ИД купца:');
    expect(refund.journal).toContain('Реф. број:');
    const second = await port.issue(requestId(), sale());
    expect(second.invoiceCounter).toBe('2/4ПП');
  });

  it('marks copies and training receipts «ОВО НИЈЕ ФИСКАЛНИ РАЧУН»', async () => {
    const original = await port.issue(requestId(), sale());
    const copy = await port.issue(
      requestId(),
      sale({
        invoiceType: 'Copy',
        referentDocumentNumber: original.invoiceNumber,
        referentDocumentDT: original.sdcDateTime,
      }),
    );
    expect(copy.invoiceCounterExtension).toBe('КП');
    expect(copy.journal?.split('\r\n')[0]).toContain('ОВО НИЈЕ ФИСКАЛНИ РАЧУН');
    const training = await port.issue(requestId(), sale({ invoiceType: 'Training' }));
    expect(training.invoiceCounter).toBe('1/3ОП');
    expect(training.journal).toContain('ОВО НИЈЕ ФИСКАЛНИ РАЧУН');
  });

  it('gives one receipt for one RequestId, however often it is sent', async () => {
    const id = requestId();
    const first = await port.issue(id, sale());
    const again = await port.issue(id, sale());
    expect(again.invoiceNumber).toBe(first.invoiceNumber);
    expect(pfr.invoices).toHaveLength(1);
    expect(await port.lookup(id)).toEqual(first);
    expect(await port.lookup(requestId())).toBeNull();
  });

  it('gives one receipt when the same request arrives several times at once', async () => {
    pfr.delayMs = 50;
    const id = requestId();
    const answers = await Promise.all(Array.from({ length: 5 }, () => port.issue(id, sale())));
    expect(new Set(answers.map((a) => a.invoiceNumber)).size).toBe(1);
    expect(pfr.invoices).toHaveLength(1);
  });
});

describe('failures', () => {
  it('a timeout after sending: unreachable, maybe sent; the lookup then finds the receipt, and a resend gets the same', async () => {
    const quick = createLpfr({ url: pfr.url, timeoutMs: 300 });
    pfr.failNext('timeout');
    const id = requestId();
    const err = await caught(quick.issue(id, sale()));
    expect(err).toBeInstanceOf(FiscalUnreachable);
    expect((err as FiscalUnreachable).maybeSent).toBe(true);
    const found = await quick.lookup(id);
    expect(found?.invoiceNumber).toBe('TESTPFR1-TESTPFR1-1');
    expect((await quick.issue(id, sale())).invoiceNumber).toBe(found!.invoiceNumber);
    expect(pfr.invoices).toHaveLength(1);
  });

  it('a dropped connection after signing: unreachable, maybe sent, and the receipt is there', async () => {
    pfr.failNext('drop');
    const id = requestId();
    const err = await caught(port.issue(id, sale()));
    expect(err).toBeInstanceOf(FiscalUnreachable);
    expect((err as FiscalUnreachable).maybeSent).toBe(true);
    expect((await port.lookup(id))?.totalCounter).toBe(1);
  });

  it('a connection cut halfway through the answer: unreachable, maybe sent, and the receipt is there', async () => {
    pfr.failNext('cut');
    const id = requestId();
    const err = await caught(port.issue(id, sale()));
    expect(err).toBeInstanceOf(FiscalUnreachable);
    expect((err as FiscalUnreachable).maybeSent).toBe(true);
    expect((await port.lookup(id))?.invoiceNumber).toBe('TESTPFR1-TESTPFR1-1');
  });

  it('5xx: unreachable, maybe sent; nothing was signed and the next attempt signs once', async () => {
    pfr.failNext('5xx', 2);
    const id = requestId();
    for (let i = 0; i < 2; i++) {
      const err = await caught(port.issue(id, sale()));
      expect(err).toBeInstanceOf(FiscalUnreachable);
      expect((err as FiscalUnreachable).maybeSent).toBe(true);
    }
    expect(await port.lookup(id)).toBeNull();
    expect((await port.issue(id, sale())).totalCounter).toBe(1);
  });

  it('refuses with the protocol codes what the PFR refuses, and signs nothing', async () => {
    const original = await port.issue(requestId(), sale());
    const refusal = async (body: InvoiceRequest) => {
      const err = await caught(port.issue(requestId(), body));
      expect(err).toBeInstanceOf(FiscalRefused);
      return (err as FiscalRefused).errors;
    };
    expect(await refusal(refundOf(original, { buyerId: null }))).toEqual({ buyerId: ['2800'] });
    expect(await refusal(refundOf(original, { referentDocumentNumber: null, referentDocumentDT: null }))).toEqual({
      referentDocumentNumber: ['2800'],
      referentDocumentDT: ['2800'],
    });
    expect(await refusal(refundOf(original, { buyerId: '99:1' }))).toEqual({ buyerId: ['2805'] });
    expect(await refusal(sale({ payment: [{ amount: 2000, paymentType: 'Cash' }] }))).toEqual({ payment: ['2805'] });
    expect(
      await refusal(
        sale({ items: [{ name: 'Паста', quantity: 2, unitPrice: 1500, labels: ['Ђ'], totalAmount: 2999 }] }),
      ),
    ).toEqual({ 'items[0].totalAmount': ['2805'] });
    expect(
      await refusal(
        sale({ items: [{ name: 'Паста', quantity: 1, unitPrice: 3000, labels: ['Ж'], totalAmount: 3000 }] }),
      ),
    ).toEqual({ 'items[0].labels': ['2310'] });
    expect(
      await refusal(sale({ items: [{ name: '', quantity: 1, unitPrice: 3000, labels: ['Ђ'], totalAmount: 3000 }] })),
    ).toEqual({ 'items[0].name': ['2800'] });
    expect(await refusal({ ...sale(), invoiceType: undefined as never })).toEqual({ invoiceType: ['2800'] });
    expect(pfr.invoices).toHaveLength(1);
  });

  it('a training PFR signs only training receipts', async () => {
    pfr.training = true;
    const err = await caught(port.issue(requestId(), sale()));
    expect((err as FiscalRefused).errors).toEqual({ invoiceType: ['2805'] });
    expect((await port.issue(requestId(), sale({ invoiceType: 'Training' }))).invoiceCounterExtension).toBe('ОП');
  });
});

describe('restart', () => {
  it('starts again on the same port with its counters and receipts', async () => {
    const device = await startFakePfr();
    const adapter = createLpfr({ url: device.url });
    const id = requestId();
    await adapter.issue(id, sale());
    await device.close();
    expect(await adapter.attention()).toBe(false);
    const again = await startFakePfr({ port: device.port, from: device });
    try {
      expect(again.url).toBe(device.url);
      expect((await adapter.lookup(id))?.totalCounter).toBe(1);
      expect((await adapter.issue(requestId(), sale())).invoiceCounter).toBe('2/2ПП');
    } finally {
      await again.close();
    }
  });
});
