import { formatMoney, pluralIn } from '../../format';
import { TELEGRAM_RSD } from '../../telegram-limits';
import { LOCALES } from '../../language';
import type { CustomerRefusals, DeadlineArgs } from '../ru/refusals';

/* The customers' refusals in Serbian, Latin script (the same codes as ru/refusals.ts). */

const locale = LOCALES.sr;

export const refusals: CustomerRefusals = {
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
  deadline: ({ hours, contact }: DeadlineArgs) =>
    `Prijava se može menjati ili otkazati najkasnije ${hours} ` +
    `${pluralIn(locale, hours, { one: 'sat', few: 'sata', other: 'sati' })} pre početka radionice. ` +
    (contact.trim() ? `Kontaktirajte studio: ${contact.trim()}` : 'Kontaktirajte studio.'),
  attended: 'Dolazak je već zabeležen: prijava se više ne može menjati',
  notQueued: 'Prijava više nije na listi čekanja.',
  notActive: 'Prijava nije aktivna: nema šta da se potvrdi',
  started: 'Radionica je već počela',
  notYet: 'Radionicu možete oceniti posle nje',
  notAttended: 'Možete oceniti samo radionicu na koju ste bili prijavljeni',
  ratingRange: 'Ocena: od 1 do 5',
  giftCancelled: 'Otkazana prijava ne može da se pokloni',
  telegramOnly: 'Ovo je dostupno samo iz Telegrama',
  giftInvalid: 'Link više ne važi: mesto je već predato, prijava je otkazana ili je radionica počela',
  giftOwn: 'Ovo je vaša prijava: pošaljite link prijatelju',
  giftFriendHasBooking: 'Već imate prijavu na ovu radionicu, pa ne možete da prihvatite mesto',
  consentRequired: 'Da biste se prijavili, potvrdite saglasnost za obradu ličnih podataka',
  noInvoices: 'Plaćanje preko Telegrama nije podešeno',
  nothingToPay: 'Za ovu prijavu nema šta da se plati',
  paymentCancelled: 'Prijava je otkazana: plaćanje nije potrebno',
  paymentQueued: 'Na listi čekanja ste: plaćanje će biti potrebno kada se oslobodi mesto',
  paymentExpired: 'Vreme za plaćanje je isteklo i prijava je otkazana. Prijavite se ponovo',
  amountChanged: 'Iznos za plaćanje se promenio. Otvorite prijavu i platite ponovo',
  currency: 'Plaćanje se prima samo u dinarima',
  invoiceRefused: 'Telegram nije prihvatio račun za plaćanje. Platite u studiju ili nam pišite',
  invoiceUnavailable: 'Telegram trenutno ne odgovara. Pokušajte ponovo da platite za minut',
  // Getters: an amount is formatted by an Intl object, the first of which costs a process ~10 ms; made
  // when a text is said, not at start-up.
  get paymentBelowTelegramMinimum() {
    return `Telegram prima uplate od ${formatMoney(TELEGRAM_RSD.min, 'sr')}, pa ostatak platite u studiju`;
  },
  get paymentAboveTelegramMaximum() {
    return `Telegram prima uplate do ${formatMoney(TELEGRAM_RSD.max, 'sr')}, pa platite u studiju ili uplatom na račun`;
  },
  certificateMalformed: 'Kod sertifikata ima 12 slova i cifara, npr. ABCD-EFGH-JKLM',
  certificateNotFound: 'Sertifikat sa ovim kodom nije pronađen',
  certificateExpired: 'Sertifikat je istekao',
  certificateUsedUp: 'Sertifikat je već iskorišćen',
  certificateVoided: 'Sertifikat je poništen',
  certificatePending: 'Sertifikat još nije plaćen',
  certificateTooMany: 'Previše pokušaja unosa koda. Pokušajte kasnije',
  certificateNotPending: 'Ovaj sertifikat je već plaćen ili poništen',
  certificateAmountChanged: 'Iznos sertifikata se promenio. Započnite kupovinu ponovo',
  certificateTelegramOnly: 'Sertifikat se može kupiti iz Telegrama',
  certificateAmountNotOffered: 'Izaberite iznos sa liste',
  certificateBookingCancelled: 'Prijava je otkazana: nema šta da se plati',
  certificatePaidAlready: 'Prijava je već plaćena u celosti',
  certificateOtherCertificate: 'Ovu prijavu već plaća drugi sertifikat',
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
};
