import { formatDateTime, pluralIn, type Instant } from '../../../contract/format';
import { LOCALES } from '../../../contract/language';
import { longDate, type ApiTexts } from './ru';

/* What the API says to a customer, in Serbian, Latin script (the same keys as ru.ts). */

const locale = LOCALES.sr;
const cut = (s: string, max: number) => ([...s].length <= max ? s : [...s].slice(0, max - 1).join('') + '…');

export const sr: ApiTexts = {
  format: {
    money: (amount: number) => `${new Intl.NumberFormat(locale).format(amount)} din.`,
    places: (n: number) =>
      `${n} ${pluralIn(locale, n, { one: 'mesto', few: 'mesta', other: 'mesta' })} na bilo kojoj radionici`,
    date: (when: Instant, timeZone: string) => longDate(locale, when, timeZone),
    dateTime: (when: Instant, timeZone: string) => formatDateTime(when, timeZone, locale),
  },
  refusals: {
    scheduleNotFound: 'Radionica nije pronađena',
    recordNotFound: 'Prijava nije pronađena',
    workshopNotFound: 'Radionica nije pronađena',
    past: 'Radionica je završena: prijava se više ne može menjati',
    pastBooking: 'Radionica je završena: prijava više nije moguća',
    alreadyBooked: 'Već ste prijavljeni na ovu radionicu',
    cancelled: 'Prijava je otkazana: prvo je vratite',
    alreadyCancelled: 'Prijava je već otkazana',
    notCancelled: 'Prijava nije otkazana',
    sessionCancelled: 'Radionica je otkazana',
    hasFreeDates: 'Ova radionica ima termine sa slobodnim mestima: prijavite se na jedan od njih u aplikaciji',
    attended: 'Dolazak je već zabeležen: prijava se više ne može menjati',
    notQueued: 'Prijava više nije na listi čekanja.',
    notActive: 'Prijava nije aktivna: nema šta da se potvrdi',
    started: 'Radionica je već počela',
    notYet: 'Radionicu možete oceniti posle nje',
    notAttended: 'Možete oceniti samo radionicu na koju ste bili prijavljeni',
    giftCancelled: 'Otkazana prijava ne može da se pokloni',
    telegramOnly: 'Ovo je dostupno samo iz Telegrama',
    giftInvalid: 'Link više ne važi: mesto je već predato, prijava je otkazana ili je radionica počela',
    giftOwn: 'Ovo je vaša prijava: pošaljite link prijatelju',
    giftFriendHasBooking: 'Već imate prijavu na ovu radionicu, pa ne možete da prihvatite mesto',
    consentRequired: 'Da biste se prijavili, potvrdite saglasnost za obradu ličnih podataka',
    noInvoices: 'Plaćanje preko Telegrama nije podešeno',
    nothingToPay: 'Za ovu prijavu nema šta da se plati',
    paymentCancelled: 'Prijava je otkazana: plaćanje nije potrebno',
    paymentExpired: 'Vreme za plaćanje je isteklo i prijava je otkazana. Prijavite se ponovo',
    amountChanged: 'Iznos za plaćanje se promenio. Otvorite prijavu i platite ponovo',
    currency: 'Plaćanje se prima samo u dinarima',
    certificateMalformed: 'Kod sertifikata ima 12 slova i cifara, npr. ABCD-EFGH-JKLM',
    certificateNotFound: 'Sertifikat sa ovim kodom nije pronađen',
    certificateExpired: 'Sertifikat je istekao',
    certificateUsedUp: 'Sertifikat je već iskorišćen',
    certificateVoided: 'Sertifikat je poništen',
    certificatePending: 'Sertifikat još nije plaćen',
    certificateTooMany: 'Previše pokušaja unosa koda. Pokušajte kasnije',
    promoUnknown: 'Promo kod nije pronađen',
    promoNotYet: 'Promo kod još ne važi',
    promoExpired: 'Promo kod je istekao',
    promoWorkshop: 'Promo kod ne važi za ovu radionicu',
    promoUsedUp: 'Promo kod je potrošen: sva korišćenja su već iskorišćena',
    promoUsedByYou: 'Već ste iskoristili ovaj promo kod',
    promoFirstTimeOnly: 'Promo kod je samo za one koji se kod nas prijavljuju prvi put',
    noTransfers: 'Studio ne prima bankovne uplate: platite na licu mesta',
    appOnly: 'Otvorite aplikaciju iz Telegrama: podaci su vezani za vaš nalog',
    tooManyChanges: 'Previše izmena prijave u jednom minutu. Sačekajte minut i pokušajte ponovo.',
    botNotConfigured: 'Telegram bot nije podešen na serveru',
    telegramUnavailable: 'Telegram trenutno nije dostupan, pokušajte kasnije',
    shareNotActive: 'Podeliti se može samo plaćen, važeći sertifikat',
  },
  deadline: (hours: number, contact: string) =>
    `Prijava se može menjati ili otkazati najkasnije ${hours} ` +
    `${pluralIn(locale, hours, { one: 'sat', few: 'sata', other: 'sati' })} pre početka radionice. ` +
    (contact.trim() ? `Kontaktirajte studio: ${contact.trim()}` : 'Kontaktirajte studio.'),
  invoice: {
    title: (workshop: string) => cut(`Radionica ${workshop}`, 32),
    description: (workshop: string, date: string, people: number, id: number) =>
      cut(`„${workshop}“, ${date}, osoba: ${people}. Prijava br. ${id}.`, 255),
    label: (id: number) => cut(`Prijava br. ${id}`, 32),
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
    money: (amount: number) => `${new Intl.NumberFormat(locale).format(amount)} din.`,
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
