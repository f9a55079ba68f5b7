import { formatMoney } from '../../../format';
import { escapeHtml as e } from '../../html';

/** Whole dinars as a Russian reader reads them everywhere: «3 500 RSD». */
export const rsd = (amount: number) => formatMoney(amount, 'ru');

/** What the bot says about money: a booking's price and payment, and payments as they arrive. */
export const money = {
  price: (amount: number) => `💰 Стоимость: ${rsd(amount)}`,
  paid: (amount: number) => `Оплачено: ${rsd(amount)}`,
  fromCredit: (amount: number) => `С вашего баланса в студии списано ${rsd(amount)}`,
  /** `until`: as common.dateTime writes it. */
  payBy: (amount: number, until: string) =>
    `Чтобы места остались за вами, оплатите ${rsd(amount)} до ${until}, иначе запись отменится.`,
  dueAtStudio: (amount: number) => `К оплате в студии: ${rsd(amount)}`,
  toCredit: (amount: number) =>
    `Оплаченные ${rsd(amount)} зачислены на ваш баланс в студии: они пойдут в счёт следующей записи.`,
  refundOwed: (amount: number) => `Студия вернёт вам ${rsd(amount)}`,
  /** A cancelled booking that holds no money: nothing to pay, nothing coming back. */
  nothingOwed: 'По этой записи ничего не нужно ни платить, ни возвращать.',
  received: (amount: number, workshop: string) =>
    `✅ Оплата ${rsd(amount)} за мастер-класс «${e(workshop)}» получена. Спасибо!`,
  receivedLate: (amount: number, workshop: string) =>
    `Оплата ${rsd(amount)} поступила, но запись на мастер-класс «${e(workshop)}» уже не ждёт оплаты: деньги зачислены на ваш баланс в студии.`,
  /** A Telegram payment for a booking or certificate that no longer exists. */
  unbooked: (amount: number, balance: number) =>
    `Оплата ${rsd(amount)} поступила, но того, за что она была, больше нет: деньги зачислены на ваш баланс в студии (сейчас на нём ${rsd(balance)}). Они пойдут в счёт следующей записи, а вернуть их можно, написав студии.`,
  payButton: (amount: number) => `💳 Оплатить ${rsd(amount)}`,
  holdExpiredHint: 'Места освободились для других. Записаться можно снова, пока есть места.',
  invoiceTitle: 'Оплата мастер-класса',
  /** The answer to Telegram's last check before charging when the booking could not be read. */
  checkFailed: 'Не удалось проверить запись. Попробуйте ещё раз через минуту',
};
