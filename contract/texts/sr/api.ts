import { formatDateTime, formatMoney, pluralIn, type Instant } from '../../format';
import { LOCALES } from '../../language';
import { cut, longDate, type ApiTexts } from '../ru/api';

/* What the API says to a customer, in Serbian, Latin script (the same keys as ru/api.ts). */

const locale = LOCALES.sr;

export const api: ApiTexts = {
  format: {
    money: (amount: number) => formatMoney(amount, 'sr'),
    places: (n: number) =>
      `${n} ${pluralIn(locale, n, { one: 'mesto', few: 'mesta', other: 'mesta' })} na bilo kojoj radionici`,
    date: (when: Instant, timeZone: string) => longDate(locale, when, timeZone),
    dateTime: (when: Instant, timeZone: string) => formatDateTime(when, timeZone, locale),
  },
  invoice: {
    title: (workshop: string) => cut(`Radionica ${workshop}`, 32),
    description: (workshop: string, date: string, people: number, id: number) =>
      cut(`„${workshop}“, ${date}, osoba: ${people}. Prijava br. ${id}.`, 255),
    label: (id: number) => cut(`Prijava br. ${id}`, 32),
    certificateTitle: 'Poklon sertifikat',
    certificateDescription: (amount: string) =>
      cut(`Poklon sertifikat za radionicu: ${amount}. Kod stiže u čet nakon plaćanja.`, 255),
    certificateLabel: 'Sertifikat',
  },
  cancelReasons: {
    holdExpired: 'Nije plaćeno na vreme',
    queuePassed: 'Mesto se nije oslobodilo',
  },
  share: {
    giftTitle: (workshop: string) => `Mesto na radionici „${workshop}“`,
    giftDescription: (date: string) => `${date}: dodirnite da pošaljete`,
    giftText: (workshop: string, date: string, people: number) =>
      `🎁 Poklanjam ti svoje mesto na radionici „${workshop}“, ${date} (osoba: ${people}). ` +
      'Dodirni dugme, upiši svoje ime i mesto je tvoje. Link važi jednom, do početka.',
    giftButton: 'Prihvati mesto',
    certificateTitle: (amount: string) => `Poklon-sertifikat na ${amount}`,
    certificateDescription: (until: string) => `Važi do ${until}`,
    certificateText: (amount: string, until: string, code: string) =>
      `🎁 Poklanjam ti poklon-sertifikat kulinarskog studija na ${amount}. Važi do ${until}.\n` +
      `Kod: ${code}. Dodirni dugme da se prijaviš na radionicu.`,
    certificateButton: 'Otvori sertifikat',
  },
  card: {
    heading: 'Poklon-sertifikat',
    placesTitle: (places: string) => `Sertifikat na ${places}`,
    money: (amount: number) => formatMoney(amount, 'sr'),
    placesOn: 'na',
    placesCount: (n: number) => `${n} ${pluralIn(locale, n, { one: 'mesto', few: 'mesta', other: 'mesta' })}`,
    anyWorkshop: 'na bilo kojoj radionici',
    quoted: (text: string) => `„${text}“`,
    recipient: 'Za',
    balance: 'Preostali iznos',
    placesLeft: 'Preostalo',
    code: 'Kod',
    validUntil: 'Važi do',
    howTo: 'Kako se koristi',
    openBot: 'Otvorite bota studija preko linka ili QR koda i izaberite radionicu.',
    enterCode: 'Pri prijavi izaberite „Imam poklon-sertifikat“ i upišite kod.',
    paysAmount: 'Sertifikat plaća prijavu do iznosa koji je preostao, ostatak se plaća kao i obično.',
    paysPlaces: 'Sertifikat plaća po jedno mesto za svakog učesnika prijave, ostatak se plaća kao i obično.',
    bookWith: 'Prijavite se sa sertifikatom:',
    qr: 'QR kod: link ka botu studija',
    print: 'Da odštampate sertifikat, pritisnite Ctrl+P (⌘P na Mac-u).',
    status: {
      pending: 'Čeka uplatu',
      active: 'Važi',
      used: 'Iskorišćen',
      expired: 'Istekao',
      voided: 'Poništen',
    },
  },
};
