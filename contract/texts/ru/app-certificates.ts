import { pluralIn } from '../app-format';
import { refusals } from './refusals';

/*
 * The texts of gift certificates and promo codes: /apply step 2 («Сертификат и промокод»), what they covered on
 * /record, and the purchase screen. They load with those screens, not with the first one (the first load's budget);
 * each language has the same keys as the Russian one (the compiler checks).
 */

export const appCertificates = {
  apply: {
    header: 'Сертификат и промокод',
    price: 'Стоимость',
    have: 'У меня есть сертификат',
    code: 'Код сертификата',
    apply: 'Применить',
    /** The code a customer typed cannot be one: said as the API refuses it. */
    malformed: refusals.certificateMalformed,
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

export type CertificateTexts = typeof appCertificates;
