import { formatMoney, plural } from '../../format';
import { CASH_DESK_TOO_LONG, EXPORT_TOO_LONG } from '../../paging';
import { CONSENT_REQUIRED } from '../../personal-data';
import { TELEGRAM_RSD } from '../../telegram-limits';

/*
 * What the studio refuses, by code. `refusals` reach customers and are said in their language too
 * (en/refusals.ts, sr/refusals.ts: the same codes); `staffRefusals` reach only staff and stay as
 * they are in every language. A refusal with values is a function of one object.
 */

/** The change deadline: hours before the start, and the studio's contact (may be empty). */
export interface DeadlineArgs {
  hours: number;
  contact: string;
}

export const refusals = {
  scheduleNotFound: 'Мастер-класс не найден',
  recordNotFound: 'Запись не найдена',
  workshopNotFound: 'Мастер-класс с таким id не найден',
  past: 'Мастер-класс уже прошёл: запись нельзя изменить',
  pastBooking: 'Запись на прошедший мастер-класс невозможна',
  alreadyBooked: 'Вы уже записаны на этот мастер-класс',
  cancelled: 'Запись отменена: сначала восстановите её',
  alreadyCancelled: 'Запись уже отменена',
  notCancelled: 'Запись не отменена',
  sessionCancelled: 'Мастер-класс отменён',
  hasFreeDates: 'На этот мастер-класс есть свободные даты: запишитесь на одну из них в приложении',
  deadline: ({ hours, contact }: DeadlineArgs) =>
    `Изменить или отменить запись можно не позднее чем за ${hours} ${plural(hours, ['час', 'часа', 'часов'])} до начала мастер-класса. ` +
    (contact.trim() ? `Свяжитесь со студией: ${contact.trim()}` : 'Свяжитесь со студией.'),
  attended: 'Посещение уже отмечено: запись больше нельзя изменить',
  notQueued: 'Запись уже не в очереди.',
  notActive: 'Запись не активна: подтверждать нечего',
  started: 'Мастер-класс уже начался',
  notYet: 'Оценить мастер-класс можно после него',
  notAttended: 'Оценить можно только мастер-класс, на который вы были записаны',
  ratingRange: 'Оценка: от 1 до 5',
  giftCancelled: 'Отменённую запись передать нельзя',
  telegramOnly: 'Это действие доступно только из Telegram',
  giftInvalid: 'Ссылка недействительна: место уже передано, запись отменена или мастер-класс начался',
  giftOwn: 'Это ваша собственная запись: передайте ссылку другу',
  giftFriendHasBooking: 'У вас уже есть запись на этот мастер-класс, поэтому принять место нельзя',
  consentRequired: CONSENT_REQUIRED,
  noInvoices: 'Оплата через Telegram не подключена',
  nothingToPay: 'По этой записи платить нечего',
  paymentCancelled: 'Запись отменена: оплата не нужна',
  paymentQueued: 'Вы в листе ожидания: оплата понадобится, когда освободится место',
  paymentExpired: 'Время на оплату истекло, запись отменена. Запишитесь снова',
  amountChanged: 'Сумма к оплате изменилась. Откройте запись и оплатите заново',
  currency: 'Оплата принимается только в динарах',
  invoiceRefused: 'Telegram не принял счёт на оплату. Оплатите в студии или напишите нам',
  invoiceUnavailable: 'Telegram сейчас не отвечает. Попробуйте оплатить через минуту',
  // Getters: an amount is formatted by an Intl object, the first of which costs a process ~10 ms; made
  // when a text is said, not at start-up.
  get paymentBelowTelegramMinimum() {
    return `Telegram принимает оплату от ${formatMoney(TELEGRAM_RSD.min, 'ru')}, поэтому остаток оплатите в студии`;
  },
  get paymentAboveTelegramMaximum() {
    return `Telegram принимает оплату до ${formatMoney(TELEGRAM_RSD.max, 'ru')}, поэтому оплатите в студии или переводом`;
  },
  certificateMalformed: 'Код сертификата — 12 букв и цифр, например ABCD-EFGH-JKLM',
  certificateNotFound: 'Сертификат с таким кодом не найден',
  certificateExpired: 'Срок действия сертификата истёк',
  certificateUsedUp: 'Сертификат уже израсходован',
  certificateVoided: 'Сертификат аннулирован',
  certificatePending: 'Сертификат ещё не оплачен',
  certificateTooMany: 'Слишком много попыток ввести код. Попробуйте позже',
  certificateNotPending: 'Этот сертификат уже оплачен или аннулирован',
  certificateAmountChanged: 'Сумма сертификата изменилась. Оформите покупку заново',
  certificateTelegramOnly: 'Купить сертификат можно из Telegram',
  certificateAmountNotOffered: 'Выберите сумму из списка',
  certificateBookingCancelled: 'Запись отменена: оплачивать нечего',
  certificatePaidAlready: 'Запись уже оплачена полностью',
  certificateOtherCertificate: 'Эту запись уже оплачивает другой сертификат',
  promoUnknown: 'Промокод не найден',
  promoNotYet: 'Промокод ещё не действует',
  promoExpired: 'Срок действия промокода истёк',
  promoWorkshop: 'Промокод не действует для этого мастер-класса',
  promoUsedUp: 'Промокод закончился: все использования уже разобрали',
  promoUsedByYou: 'Вы уже использовали этот промокод',
  promoFirstTimeOnly: 'Промокод только для тех, кто записывается к нам впервые',
  noTransfers: 'Студия не принимает банковские переводы: оплатите на месте',
  appOnly: 'Откройте приложение из Telegram: данные привязаны к вашему аккаунту',
  tooManyChanges: 'Слишком много изменений записи за минуту. Подождите минуту и попробуйте снова.',
  botNotConfigured: 'Telegram-бот не настроен на сервере',
  telegramUnavailable: 'Telegram сейчас недоступен, попробуйте позже',
  shareNotActive: 'Поделиться можно только оплаченным действующим сертификатом',
};

/** The customers' refusals of one language: the same codes and values as the Russian ones. */
export type CustomerRefusals = {
  [C in keyof typeof refusals]: (typeof refusals)[C] extends string ? string : (typeof refusals)[C];
};

export const staffRefusals = {
  unreconciledNotFound: 'Такой строки несверенных денег нет',
  unreconciledDecided: 'По этим деньгам уже решено: обновите страницу',
  owedRefundNotFound: 'Такого долга к возврату нет',
  owedRefundPaid: 'Этот возврат уже выплачен: обновите страницу',
  addressNotFound: 'Адрес с таким id не найден',
  sessionHasBookings: ({ count }: { count: number }) =>
    `На этом занятии есть записи (${count}) или деньги по ним: удалить его нельзя. Отмените мастер-класс: записи останутся, клиентам сообщат причину и куда пошли их деньги.`,
  /** A past or cancelled session: it can no longer be cancelled either, so it stays in history. */
  sessionKeptInHistory: ({ count }: { count: number }) =>
    `На этом занятии есть записи (${count}) или деньги по ним: удалить его нельзя. Оно остаётся в Истории вместе с записями и оплатами; вернуть деньги клиенту можно в меню его записи: «Оплата и цена».`,
  attendedStaff: 'Посещение уже отмечено: сначала снимите отметку',
  catalogWorkshopNotFound: 'Мастер-класс не найден',
  catalogAddressNotFound: 'Адрес не найден',
  workshopInUse: ({ count }: { count: number }) =>
    `Нельзя удалить мастер-класс: он есть в расписании (занятий: ${count}). Сначала удалите эти занятия.`,
  addressInUse: ({ count }: { count: number }) =>
    `Нельзя удалить адрес: он указан в расписании (занятий: ${count}). Сначала измените или удалите эти занятия.`,
  seriesTooLong: ({ months }: { months: number }) => `Серия — не дальше чем на ${months} месяцев от первой даты`,
  seriesUntilBeforeStart: 'Дата окончания раньше первой даты',
  seriesEmpty: 'В выбранные дни нет ни одной будущей даты',
  minPeopleNotAsked: 'Решение по этому мастер-классу не запрашивалось',
  minPeopleStarted: 'Мастер-класс уже начался: отменить его нельзя',
  sessionAlreadyCancelled: 'Мастер-класс уже отменён',
  sessionPast: 'Мастер-класс уже прошёл: отменить его нельзя',
  reminderPast: 'Мастер-класс уже прошёл: уведомления не отправляются',
  attendanceNotActive: 'Посещение отмечают только у активной записи',
  attendanceTooEarly: 'Посещение можно отметить не раньше чем за час до начала',
  attendanceStaffOnly: 'Посещение отмечают сотрудники студии',
  customerNotFound: 'Клиент не найден',
  noAccess: 'Нет доступа',
  hostMethods: 'Ведущий принимает оплату наличными или картой',
  exportTooLong: EXPORT_TOO_LONG,
  cashDeskTooLong: CASH_DESK_TOO_LONG,
  bankStatementUnreadable: 'Выписку не удалось прочитать: загрузите её в формате CSV',
  bankStatementColumns: ({ missing }: { missing: string }) =>
    `В выписке не найдены столбцы: ${missing}. Укажите, как они называются в выписке вашего банка`,
  bankLineNotFound: 'Строка выписки не найдена',
  bankLineResolved: 'Эта строка выписки уже разобрана',
  certificatePastExpiry: 'Срок действия должен быть в будущем',
  certificateVoidedAlready: 'Сертификат уже аннулирован',
  promoDuplicate: 'Промокод с таким кодом уже есть',
  promoNoWorkshop: 'Такого мастер-класса нет',
  promoPercentRange: 'Скидка в процентах: от 1 до 100',
  promoEndsBeforeStart: 'Дата окончания раньше даты начала',
  deskPaidAlready: 'Запись уже оплачена полностью',
  deskAboveBalance: ({ balance }: { balance: number }) =>
    `Сумма больше остатка к оплате (${formatMoney(balance, 'ru')}): проверьте, не внесена ли оплата`,
  deskNothingToRefund: 'Возвращать нечего',
  deskAboveRefundable: ({ paid }: { paid: number }) =>
    `Вернуть можно не больше оплаченного (${formatMoney(paid, 'ru')})`,
  deskNothingOwed: 'Возвращать нечего: по записи ничего не причитается клиенту',
  deskAboveOwed: ({ owed }: { owed: number }) =>
    `Клиенту причитается ${formatMoney(owed, 'ru')}: вернуть больше можно, только отметив возврат сверх причитающегося и указав причину`,
  deskNoCustomer: 'Запись сделана не из Telegram: вернуть на баланс клиента в студии нельзя',
  deskAboveMoneyPaid: ({ paid }: { paid: number }) =>
    `Деньгами (наличные, карта, перевод, Telegram) за запись оплачено ${formatMoney(paid, 'ru')}: вернуть деньгами больше нельзя, оплаченное с баланса в студии возвращается на баланс, сертификатом — на сертификат`,
  deskAboveCreditRefundable: ({ paid }: { paid: number }) =>
    `На баланс в студии можно вернуть не больше ${formatMoney(paid, 'ru')}: оплаченное сертификатом возвращается на сертификат`,
  deskCreditShort: ({ balance }: { balance: number }) =>
    `На балансе клиента в студии только ${formatMoney(balance, 'ru')}`,
  fiscalReceiptNotFound: 'Такого чека нет',
  fiscalNumberTyped: 'У этого чека уже есть номер: обновите страницу',
  fiscalNotManual: 'Номер вводится только у чека, который ждёт номера из кассы студии (ручной режим)',
  fiscalNumberTaken: ({ number }: { number: string }) => `Номер ${number} уже указан у другого чека`,
  fiscalNotIssued: 'Чек ещё не выдан: напечатать можно выданный чек',
  fiscalNoBuyerWanted: 'Этот чек не ждёт документа покупателя: обновите страницу',
  fiscalNoPfrUrl: 'Укажите адрес PFR, например http://127.0.0.1:7555',
  fiscalNotLpfr: 'PIN вводится в режиме L-PFR/V-PFR с указанным адресом PFR',
  fiscalPinWrong: 'PFR не принял PIN: неверный PIN. После нескольких неверных попыток карта блокируется',
  fiscalPinRefused: ({ code }: { code: string }) => `PFR не принял PIN (код ${code})`,
  fiscalPinLocked:
    'Элемент безопасности PFR заблокирован после неверных PIN: разблокируйте его PUK-кодом в программе PFR',
  fiscalPfrUnreachable: ({ error }: { error: string }) => `PFR не отвечает: ${error}`,
  fiscalLabelsUnverified:
    'PFR не назвал свои налоговые метки (не отвечает или ждёт PIN): выбрать метку можно, когда он на связи',
  fiscalLabelUnknown: ({ label }: { label: string }) =>
    `Налоговой метки «${label}» нет среди текущих ставок PFR: выберите метку из списка`,
  emailTaken: 'The user with this email already exists in the system',
  emailUnknown: 'The user with this email does not exist in the system.',
  badCredentials: 'Incorrect email or password',
  inactive: 'Inactive user',
  wrongPassword: 'Incorrect password',
  samePassword: 'New password cannot be the same as the current one',
  badResetToken: 'Invalid or expired token',
  tooManyFailures: 'Слишком много неудачных попыток входа в этот аккаунт. Подождите 15 минут и попробуйте снова.',
  privileges: "The user doesn't have enough privileges",
  userNotFound: 'The user with this id does not exist in the system',
  deleteSelf: 'Super users are not allowed to delete themselves',
  openRegistration: 'Open user registration is forbidden on this server',
  /** The platform bot's one-time login link (the studio's welcome page): used, expired or unknown. */
  loginLinkExpired: 'Ссылка для входа устарела. Попросите новую у бота: /studios',
  studioProfileFixed:
    'В одиночной установке название и часовой пояс задаются в настройках сервера (BUSINESS_NAME, BUSINESS_TIMEZONE)',
};
