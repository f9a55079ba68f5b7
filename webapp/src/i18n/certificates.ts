import { pluralIn } from './format';
import { currentLanguage, useT } from './index';

/*
 * The texts of gift certificates and promo codes: /apply step 2 («Сертификат и промокод»), what they covered on
 * /record, and the purchase screen. They load with those screens, not with the first one (the first load's budget);
 * each language has the same keys as the Russian one (the compiler checks).
 */

const ru = {
  apply: {
    header: 'Сертификат и промокод',
    price: 'Стоимость',
    have: 'У меня есть сертификат',
    code: 'Код сертификата',
    apply: 'Применить',
    malformed: 'Код сертификата — 12 букв и цифр, например ABCD-EFGH-JKLM',
    covers: (amount: string) => `Сертификат оплатит ${amount}`,
    balance: (balance: string, until: string) => `Остаток ${balance}, действует до ${until}`,
    /** A places certificate: '2 места'. */
    places: (n: number) =>
      `${n}\u00a0${pluralIn('ru', n, { one: 'место', few: 'места', many: 'мест', other: 'места' })}`,
    coversPlaces: (places: string, amount: string) => `Сертификат оплатит ${places} — ${amount}`,
    balancePlaces: (places: string, until: string) => `Осталось ${places} на любой мастер-класс, действует до ${until}`,
    rest: (amount: string) => `Остальное (${amount}) — как обычно`,
    promo: 'Промокод',
    promoCode: 'Код',
    discount: (code: string) => `Скидка по промокоду ${code}`,
    notApplied: 'Нажмите «Применить», чтобы проверить код',
    paidByCertificate: 'Оплачено сертификатом',
  },
  buy: {
    title: 'Подарочный сертификат',
    intro: 'Мастер-класс в подарок: получатель сам выберет дату и мастер-класс.',
    amount: 'Сумма',
    valid: (months: number) =>
      `Действует ${months} ${pluralIn('ru', months, { one: 'месяц', few: 'месяца', other: 'месяцев' })} с покупки`,
    recipient: 'Кому',
    recipientPlaceholder: 'Имя на сертификате',
    greeting: 'Поздравление',
    greetingPlaceholder: 'Необязательно',
    pay: (amount: string) => `Оплатить ${amount}`,
    request: 'Отправить заявку',
    requestHint: 'Оплата в студии или переводом: когда студия подтвердит оплату, сертификат придёт в чат с ботом.',
    paid: 'Оплата прошла! Сертификат придёт в чат с ботом.',
    requested: 'Заявка отправлена. Сертификат придёт в чат с ботом, когда студия подтвердит оплату.',
    failed: 'Не удалось оформить сертификат',
    mine: 'Мои сертификаты',
    balance: (balance: string, amount: string) => `Остаток ${balance} из ${amount}`,
    balancePlaces: (left: number, places: number) => `Осталось мест: ${left} из ${places}`,
    until: (date: string) => `до ${date}`,
    card: 'Открыть карточку',
    statuses: {
      pending: 'Ждёт оплаты',
      active: 'Действует',
      used: 'Израсходован',
      expired: 'Истёк',
      voided: 'Аннулирован',
    },
    toSchedule: 'К расписанию',
  },
};

export type CertificateTexts = typeof ru;

const en: CertificateTexts = {
  apply: {
    header: 'Gift certificate and promo code',
    price: 'Price',
    have: 'I have a gift certificate',
    code: 'Certificate code',
    apply: 'Apply',
    malformed: 'A certificate code is 12 letters and digits, e.g. ABCD-EFGH-JKLM',
    covers: (amount: string) => `The certificate pays ${amount}`,
    balance: (balance: string, until: string) => `Balance ${balance}, valid until ${until}`,
    places: (n: number) => `${n}\u00a0${pluralIn('en-GB', n, { one: 'place', other: 'places' })}`,
    coversPlaces: (places: string, amount: string) => `The certificate pays ${places}: ${amount}`,
    balancePlaces: (places: string, until: string) => `${places} left at any workshop, valid until ${until}`,
    rest: (amount: string) => `The rest (${amount}) is paid as usual`,
    promo: 'Promo code',
    promoCode: 'Code',
    discount: (code: string) => `Promo code ${code} discount`,
    notApplied: 'Press “Apply” to check the code',
    paidByCertificate: 'Paid by gift certificate',
  },
  buy: {
    title: 'Gift certificate',
    intro: 'A workshop as a present: the recipient chooses the class and the date.',
    amount: 'Amount',
    valid: (months: number) =>
      `Valid for ${months} ${pluralIn('en-GB', months, { one: 'month', other: 'months' })} from purchase`,
    recipient: 'For',
    recipientPlaceholder: 'Name on the certificate',
    greeting: 'Greeting',
    greetingPlaceholder: 'Optional',
    pay: (amount: string) => `Pay ${amount}`,
    request: 'Send the request',
    requestHint:
      'Pay at the studio or by bank transfer: once the studio confirms it, the certificate arrives in the bot chat.',
    paid: 'Payment received! The certificate will arrive in the bot chat.',
    requested: 'Request sent. The certificate will arrive in the bot chat once the studio confirms the payment.',
    failed: 'Could not order the certificate',
    mine: 'My certificates',
    balance: (balance: string, amount: string) => `Balance ${balance} of ${amount}`,
    balancePlaces: (left: number, places: number) => `Places left: ${left} of ${places}`,
    until: (date: string) => `until ${date}`,
    card: 'Open the card',
    statuses: {
      pending: 'Awaiting payment',
      active: 'Valid',
      used: 'Used up',
      expired: 'Expired',
      voided: 'Voided',
    },
    toSchedule: 'To the schedule',
  },
};

const sr: CertificateTexts = {
  apply: {
    header: 'Poklon-sertifikat i promo kod',
    price: 'Cena',
    have: 'Imam poklon-sertifikat',
    code: 'Kod sertifikata',
    apply: 'Primeni',
    malformed: 'Kod sertifikata ima 12 slova i cifara, npr. ABCD-EFGH-JKLM',
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

/** Each language's texts (the bot and the card name the button «У меня есть сертификат» as it is here). */
export const certificateCatalogues = { ru, en, sr };

/** The certificate and promo texts in the customer's current language (the component follows a change of it). */
export function useCertificateTexts(): CertificateTexts {
  useT();
  return certificateCatalogues[currentLanguage()];
}
