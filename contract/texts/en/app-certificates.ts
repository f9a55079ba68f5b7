import { pluralIn } from '../app-format';
import { refusals } from './refusals';
import type { CertificateTexts } from '../ru/app-certificates';

export const appCertificates: CertificateTexts = {
  apply: {
    header: 'Gift certificate and promo code',
    price: 'Price',
    have: 'I have a gift certificate',
    code: 'Certificate code',
    apply: 'Apply',
    /** The code a customer typed cannot be one: said as the API refuses it. */
    malformed: refusals.certificateMalformed,
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
