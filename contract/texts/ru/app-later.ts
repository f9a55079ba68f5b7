import type { ReceiptKind } from '../../receipts';
import { app as firstScreen } from './app';

/*
 * The Russian texts of the screens after the first (the contact form, success, the seat gift, /record):
 * kept out of the first load. A module that shows them imports this file, which attaches them to the
 * Russian catalogue before any of its components render; en/app.ts and sr/app.ts hold all their texts.
 */

const queueLater = 'Запись будет добавлена в очередь, и мы сообщим вам в Telegram, когда освободятся места.';

const later = {
  /** Added to the first screen's common texts. */
  common: {
    close: 'Закрыть',
    cancel: 'Отмена',
    no: 'Нет',
    workshop: 'Мастер-класс',
    address: 'Адрес',
    onMap: 'На карте',
    peopleCount: 'Количество человек',
    name: 'Имя',
    lastName: 'Фамилия',
    required: 'Обязательно',
    optional: 'Необязательно',
    hasAllergy: 'Есть аллергия',
    hasAllergyLong: 'Есть аллергия на продукты',
    allergyWhat: 'На что аллергия',
    allergyPlaceholder: 'На что аллергия?',
    comment: 'Комментарий',
    noTelegramTitle: 'Нет данных Telegram',
    /** The line under a form: pressing the action is consent; `more` opens the privacy notice. */
    consent: (action: string) =>
      `Нажимая «${action}», вы соглашаетесь на обработку ваших персональных данных, включая сведения об аллергии, —`,
    consentMore: 'подробнее',
    decrease: 'Уменьшить',
    increase: 'Увеличить',
  },
  /** Telegram's own powers: the prepared share message and the SecondaryButton. */
  native: {
    otherDates: 'Другие даты',
    giftSent: 'Сообщение отправлено. Первый, кто откроет ссылку в нём, займёт ваше место.',
    giftPrepareFailed: 'Не удалось подготовить сообщение: отправьте другу ссылку',
    certificateShare: 'Подарить сертификат',
    certificateSent: 'Сертификат отправлен',
    certificateShareFailed: 'Не удалось подготовить сообщение',
  },
  contact: {
    formLabel: 'Контактные данные',
    noTelegramUser: 'Не удалось получить данные Telegram. Откройте запись через бота в Telegram, чтобы записаться.',
    book: 'Записаться',
    queue: 'Встать в очередь',
    failedTitle: 'Что-то пошло не так.',
    failed: 'Записаться не получилось',
    refused: (detail: string) => `Записаться не получилось. ${detail}`,
    queuedSome: (n: number) => `Свободных мест: ${n}. ${queueLater}`,
    queuedNone: `Свободных мест нет. ${queueLater}`,
    peopleRange: (min: number, max: number) => `Можно записать от ${min} до ${max} человек`,
    participants: 'Участников',
    allergy: 'Аллергия',
    firstTime: 'Вы у нас впервые?',
    firstYes: 'Да, впервые',
    firstNo: 'Нет, уже был(а)',
    source: 'Откуда вы о нас узнали?',
    sources: {
      instagram: 'Instagram',
      telegram: 'Telegram',
      friends: 'От друзей и знакомых',
      certificate: 'Получил(а) подарочный сертификат',
      events: 'На мероприятиях',
      other: 'Другое',
    },
    commentPlaceholder: 'Пожелания или вопросы',
    /** Shown instead of the form check's own (Russian) messages in other languages. */
    errors: {
      name: 'Укажите имя',
      allergy: 'Укажите, на что аллергия',
      firstTime: 'Укажите, впервые ли вы у нас',
    },
  },
  success: {
    queued: 'Вы в очереди',
    booked: 'Вы записаны!',
    when: (date: string, time: string) => `${date} в ${time}`,
    queuedText: (workshop: string, when: string) =>
      `Свободных мест сейчас нет. Мы добавим вас на «${workshop}» (${when}), как только место освободится, и сообщим об этом в Telegram.`,
    queuePlace: (position: number) => ` Ваше место в очереди: ${position}.`,
    bookedText: (workshop: string, when: string) =>
      `Ждём вас на «${workshop}» ${when}. Подтверждение придёт в Telegram.`,
    price: (amount: string) => ` Стоимость: ${amount}.`,
    openRecord: 'Открыть мою запись',
  },
  newDates: {
    header: 'Нет свободных дат',
    footer: 'Напишем один раз, когда появится новая дата',
    subscribe: 'Сообщить о новых датах',
    subscribed: 'Подписка оформлена',
    done: 'Готово! Напишем в Telegram, когда появятся новые даты',
    failed: 'Не получилось подписаться',
  },
  gift: {
    label: 'Вам передают место',
    title: (giver: string) => `${giver} передаёт вам место`,
    invalid: 'Ссылка недействительна',
    pickWorkshop: 'Выбрать мастер-класс',
    accept: 'Принять место',
    nameMissing: 'Укажите имя',
    accepted: 'Место ваше!',
    failed: 'Не удалось принять место',
    queuedTitle: 'Запись в очереди',
    queued: (position: number | null) =>
      `Свободных мест пока нет: запись в очереди${position ? `, место ${position}` : ''}. Мы напишем в Telegram, когда место освободится.`,
    openInTelegram: 'Откройте ссылку в Telegram, чтобы принять место.',
    yourData: 'Ваши данные',
  },
  privacy: {
    title: 'Обработка персональных данных',
    failed: (error: string) => `Не удалось загрузить текст: ${error}`,
    ok: 'Понятно',
  },
  record: {
    heading: 'Ваша запись на мастер-класс',
    loading: 'Загрузка записи',
    state: { ACTIVE: 'Активна', QUEUED: 'В очереди', CANCELLED: 'Отменена' },
    past: 'Завершена',
    inactive: 'Запись неактивна',
    pastText: 'Мастер-класс уже прошёл, изменить запись нельзя.',
    cancelled: 'Запись была отменена',
    reason: (reason: string) => `Причина: ${reason}`,
    attended: 'Посещение отмечено',
    queued: 'Запись в очереди',
    queuedText:
      'Свободных мест сейчас нет, поэтому запись поставлена в очередь. Как только место освободится, мы добавим вас и сообщим об этом в Telegram.',
    queuePlace: (position: number) => `Ваше место в очереди: ${position}`,
    price: 'Стоимость',
    perPerson: (price: string) => `${price} за человека`,
    participant: 'Участник',
    fullName: 'Имя и фамилия',
    allergy: 'Аллергия',
    allergyYes: (what: string | null) => (what ? `Да: ${what}` : 'Да'),
    changeCount: 'Изменить количество человек',
    newCount: 'Новое количество человек',
    notEnoughTitle: 'Мест недостаточно',
    countWarning: 'Свободных мест недостаточно: запись будет поставлена в очередь, пока не освободятся места.',
    save: 'Сохранить',
    countChanged: (n: number) => `Количество человек изменено: ${n}.`,
    nowQueued: ' Запись в очереди.',
    cancel: 'Отменить запись',
    cancelReason: 'Причина отмены',
    cancelReasonPlaceholder: 'Расскажите, почему вы отменяете запись',
    confirmCancel: 'Подтвердить отмену',
    cancelledToast: 'Запись отменена',
    restore: 'Восстановить запись',
    restored: 'Запись восстановлена.',
    failedPeople: 'Не удалось изменить количество человек',
    failedCancel: 'Не удалось отменить запись',
    failedRestore: 'Не удалось восстановить запись',
  },
  journey: {
    deadlineTitle: 'Изменить запись уже нельзя',
    deadline: (until: string) => `Отменить запись или изменить количество человек можно было до ${until}.`,
    contact: (contact: string) => ` Свяжитесь со студией: ${contact}`,
    contactNone: ' Свяжитесь со студией.',
    calendar: 'Добавить в календарь',
    calendarFile: 'masterclass.ics',
    giftShare: (title: string) => `Передаю тебе своё место на мастер-класс «${title}»`,
    giftFailed: 'Не удалось создать ссылку',
    gift: 'Передать место другу',
    giftText:
      'Отправьте другу эту ссылку. Она одноразовая и действует до начала мастер-класса: друг введёт своё имя и займёт ваше место.',
    giftSend: 'Отправить другу',
    leaveReason: 'Вышел(а) из очереди',
    left: 'Вы вышли из очереди',
    leaveFailed: 'Не удалось выйти из очереди',
    leave: 'Выйти из очереди',
    leaveAsk: 'Выйти из очереди? Место в очереди не сохранится.',
    leaveYes: 'Да, выйти',
    confirmedTitle: 'Участие подтверждено',
    confirmed: 'Вы ответили «Приду» на напоминание. Ждём вас!',
  },
  payment: {
    header: 'Оплата',
    price: 'Стоимость записи',
    total: 'Итого со скидкой',
    paid: 'Оплачено',
    fromCredit: (amount: string) => `из них с баланса в студии: ${amount}`,
    due: 'К оплате',
    refund: 'Студия вернёт вам',
    payBy: (amount: string, until: string) => `Оплатите ${amount} до ${until}`,
    payByText: 'Иначе запись отменится, а места достанутся другим.',
    telegram: 'Оплатить в Telegram',
    qr: 'Перевод по QR-коду',
    qrHint: 'Отсканируйте код в приложении банка или переведите по реквизитам:',
    qrAlt: 'QR-код для оплаты переводом',
    account: 'Счёт',
    recipient: 'Получатель',
    purpose: 'Назначение',
    reference: 'Позив на број',
    atStudio: 'Оплата на месте, в студии.',
    orAtStudio: 'Или оплатите на месте, в студии.',
    paidToast: 'Оплата прошла. Спасибо!',
    credit: (amount: string) => `На вашем балансе в студии: ${amount}. Он пойдёт в счёт следующей записи.`,
  },
  /** The booking's fiscal receipts (the number, the kind, the Tax Administration's page to verify it). */
  receipts: {
    header: 'Фискальные чеки',
    kinds: {
      advance_sale: 'Аванс',
      advance_refund: 'Возврат аванса',
      normal_sale: 'Продажа',
      normal_refund: 'Возврат',
      copy: 'Копия',
      training: 'Учебный',
      proforma: 'Счёт-проформа',
    } satisfies Record<ReceiptKind, string>,
    verify: 'Проверить чек',
    /** `date`: as the page writes dates. */
    issued: (amount: string, date: string) => `${amount} · ${date}`,
  },
  myData: {
    title: 'Мои данные',
    text: 'Можно посмотреть, что о вас хранится, или удалить это. В боте то же самое делают команды /mydata (с файлом) и /forget.',
    show: 'Показать мои данные',
    hide: 'Скрыть',
    forget: 'Удалить мои данные',
    stored: 'Что о вас хранится',
    none: 'Записей нет.',
    people: (n: number) => `${n} чел.`,
    allergy: (what: string | null) => `аллергия: ${what ?? 'да'}`,
    comment: (text: string) => `комментарий: ${text}`,
    subscriptions: (list: string) => `Сообщить о новых датах: ${list}`,
    staffNote: (note: string) => `Заметка студии о вас: ${note}`,
    forgetText:
      'Предстоящие записи будут отменены, а во всех записях имя, Telegram-аккаунт, комментарий и сведения об аллергии будут удалены, как и заметка студии о вас. Это нельзя отменить.',
    delete: 'Удалить',
    loadFailed: 'Не удалось загрузить данные',
    deleted: 'Ваши данные удалены',
    cancelledUpcoming: (n: number) => `Отменено предстоящих записей: ${n}.`,
    deleteFailed: 'Не удалось удалить данные',
    /** The money an erasure leaves owed back: credit, paid for upcoming bookings, all owed (formatted). */
    forgetMoney: (credit: string, paid: string, owed: string) =>
      `На вашем балансе в студии: ${credit}. Оплачено за предстоящие записи: ${paid}. После удаления студия будет должна вам ${owed}, но уже не будет знать, что это вы: чтобы получить деньги, сначала попросите студию вернуть их.`,
  },
};

/** Every text of the mini-app: the first screen's and the later ones. */
export type AppTexts = typeof firstScreen & typeof later;

// Groups the first screen has too (common) get the later keys added; the rest are attached whole.
for (const [key, group] of Object.entries(later)) {
  const first = (firstScreen as Record<string, object>)[key];
  if (first) Object.assign(first, group);
  else (firstScreen as Record<string, object>)[key] = group;
}

/** The Russian catalogue, whole once this module has run. */
export const app = firstScreen as AppTexts;
