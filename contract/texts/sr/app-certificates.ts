import { pluralIn } from '../app-format';
import { refusals } from './refusals';
import type { CertificateTexts } from '../ru/app-certificates';

export const appCertificates: CertificateTexts = {
  apply: {
    header: 'Poklon-sertifikat i promo kod',
    price: 'Cena',
    have: 'Imam poklon-sertifikat',
    code: 'Kod sertifikata',
    apply: 'Primeni',
    /** The code a customer typed cannot be one: said as the API refuses it. */
    malformed: refusals.certificateMalformed,
    covers: (amount: string) => `Sertifikat plaća ${amount}`,
    balance: (balance: string, until: string) => `Preostalo ${balance}, važi do ${until}`,
    places: (n: number) => `${n}\u00a0${pluralIn('sr-Latn', n, { one: 'mesto', few: 'mesta', other: 'mesta' })}`,
    coversPlaces: (places: string, amount: string) => `Sertifikat plaća ${places}: ${amount}`,
    balancePlaces: (places: string, until: string) => `Preostalo ${places} na bilo kojoj radionici, važi do ${until}`,
    rest: (amount: string) => `Ostatak (${amount}) plaća se kao i obično`,
    promo: 'Promo kod',
    promoCode: 'Kod',
    discount: (code: string) => `Popust po promo kodu ${code}`,
    notApplied: 'Pritisnite „Primeni“ da proverite kod',
    paidByCertificate: 'Plaćeno poklon-sertifikatom',
  },
  buy: {
    title: 'Poklon-sertifikat',
    intro: 'Radionica na poklon: primalac sam bira radionicu i datum.',
    amount: 'Iznos',
    valid: (months: number) =>
      `Važi ${months} ${pluralIn('sr-Latn', months, { one: 'mesec', few: 'meseca', other: 'meseci' })} od kupovine`,
    recipient: 'Za koga',
    recipientPlaceholder: 'Ime na sertifikatu',
    greeting: 'Čestitka',
    greetingPlaceholder: 'Nije obavezno',
    pay: (amount: string) => `Plati ${amount}`,
    request: 'Pošalji zahtev',
    requestHint: 'Plaćanje u studiju ili uplatom: kada studio potvrdi uplatu, sertifikat stiže u čet sa botom.',
    paid: 'Plaćanje je uspelo! Sertifikat stiže u čet sa botom.',
    requested: 'Zahtev je poslat. Sertifikat stiže u čet sa botom kada studio potvrdi uplatu.',
    failed: 'Sertifikat nije poručen',
    mine: 'Moji sertifikati',
    balance: (balance: string, amount: string) => `Preostalo ${balance} od ${amount}`,
    balancePlaces: (left: number, places: number) => `Preostalo mesta: ${left} od ${places}`,
    until: (date: string) => `do ${date}`,
    card: 'Otvori karticu',
    statuses: {
      pending: 'Čeka uplatu',
      active: 'Važi',
      used: 'Iskorišćen',
      expired: 'Istekao',
      voided: 'Poništen',
    },
    toSchedule: 'Na raspored',
  },
};
