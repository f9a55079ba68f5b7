import { common } from './common';
import { escapeHtml as e, fullName } from '../../html';
import { rsd } from './money';

/** The money /forget's confirmation states: the credit, what upcoming bookings paid, all owed back after. */
export interface ErasureMoneyText {
  credit: number;
  paid: number;
  owed: number;
}

/** The bot's answers to commands and buttons, its command list and the buttons of those answers. */
export const replies = {
  commands: [
    { command: 'start', description: 'Начать и записаться на мастер-класс' },
    { command: 'my', description: 'Мои записи' },
    { command: 'cancel', description: 'Отменить запись' },
    { command: 'language', description: 'Язык' },
    { command: 'help', description: 'Помощь' },
    { command: 'mydata', description: 'Мои данные: что о вас хранится' },
    { command: 'forget', description: 'Удалить мои данные' },
  ],
  menuButton: 'Записаться',
  start: (businessName: string, withButton: boolean) =>
    [
      `Здравствуйте! Это бот «${e(businessName)}» 👩‍🍳`,
      '',
      'Здесь можно записаться на кулинарный мастер-класс, посмотреть свои записи и отменить запись.',
      ...(withButton ? ['', 'Нажмите «Записаться на мастер-класс», чтобы выбрать дату.'] : []),
      '',
      '/my — мои записи',
      '/cancel — отменить запись',
      '/help — помощь',
    ].join('\n'),
  help: (businessName: string) =>
    [
      `<b>${e(businessName)}</b>: запись на кулинарные мастер-классы.`,
      '',
      '/start — записаться на мастер-класс',
      '/my — мои предстоящие записи (у каждой своя кнопка: изменить количество человек, отменить, восстановить)',
      '/cancel — отменить запись',
      '/mydata — какие ваши данные хранятся (с файлом JSON)',
      '/forget — удалить ваши данные',
      '/help — эта справка',
      '',
      'Когда вы записаны, я пришлю подтверждение, а если мест нет, вы встанете в очередь, и я напишу, как только место освободится.',
    ].join('\n'),
  unknown: 'Я понимаю команды /start, /my, /cancel и /help.',
  buttonGone: 'Эта кнопка больше не действует. Отправьте команду заново.',
  error: common.error,
  /** /language: the buttons are each language's name in itself. */
  language: {
    ask: 'Выберите язык бота:',
    set: 'Готово: буду писать вам по-русски.',
    setToast: 'Русский',
  },
  my: {
    empty: 'У вас пока нет предстоящих записей.',
    head: 'Ваши предстоящие записи:',
    /** `date`: as common.dateTime writes it; `state`: common.state or queuedAt. */
    item: (i: number, workshop: string, date: string, state: string, peopleCount: number) =>
      `${i + 1}. «${e(workshop)}», ${date}\n    ${state} · ${peopleCount} чел.`,
    /** `shortDate`: as common.shortDateTime writes it. */
    button: (i: number, workshop: string, shortDate: string) => `${i + 1}. ${workshop}, ${shortDate}`,
    queuedAt: (position: number) => `${common.state.QUEUED} (место ${position})`,
    leaveQueueButton: (i: number) => `Выйти из очереди: ${i + 1}`,
  },
  /** The /cancel conversation. */
  cancel: {
    none: 'У вас нет предстоящих записей, которые можно отменить.',
    pick: 'Какую запись отменить?',
    pickButton: (workshop: string, shortDate: string) => `${workshop}, ${shortDate}`,
    abortButton: 'Не отменять',
    pickAgain: 'Выберите запись кнопкой выше или нажмите «Не отменять».',
    notYours: 'Эта запись недоступна. Выберите запись кнопкой выше.',
    askReason: (workshop: string, date: string) =>
      `Отменяем запись на «${e(workshop)}», ${date}.\n\nНапишите, пожалуйста, причину отмены одним сообщением.`,
    reasonAgain: 'Напишите причину отмены текстом (до 1000 символов).',
    confirm: (workshop: string, date: string, reason: string) =>
      `Отменить запись на «${e(workshop)}», ${date}?\n\nПричина: ${e(reason)}`,
    yesButton: 'Да, отменить',
    noButton: 'Нет',
    confirmAgain: 'Нажмите «Да, отменить» или «Нет».',
    done: '❌ Запись отменена. Передумаете — восстановить её можно на странице записи (/my).',
    doneToast: 'Запись отменена',
    kept: 'Хорошо, запись остаётся в силе.',
    failed: (detail: string) => `Не получилось отменить запись: ${e(detail)}`,
  },
  /** `/start link_<token>` from a staff profile. */
  link: {
    done: (email: string) =>
      `✅ Готово! Уведомления для ${e(email)} теперь будут приходить в этот чат.\nОтключить их можно в профиле (Настройки → Профиль).`,
    invalid: 'Ссылка недействительна или устарела. Получите новую в профиле (Настройки → Профиль).',
  },
  /** The customer's journey: replies to the reminder's, rating, queue and new-dates buttons, and a friend's gift link. */
  journey: {
    notYours: 'Эта запись недоступна.',
    confirmedToast: 'Спасибо, ждём вас!',
    confirmed: (workshop: string, date: string) =>
      `✅ Вы подтвердили, что придёте на мастер-класс «${e(workshop)}», ${date}.\n\nЖдём вас!`,
    cantCome: (workshop: string, date: string) =>
      `Не получается прийти на мастер-класс «${e(workshop)}», ${date}?\n\nМожно отменить запись или передать место другу.`,
    cancelButton: 'Отменить запись?',
    giftButton: '🎁 Передать место другу',
    backButton: '← Назад',
    cancelledToast: 'Запись отменена',
    cancelled: (workshop: string, date: string) =>
      `❌ Запись на мастер-класс «${e(workshop)}», ${date}, отменена.\n\nПередумаете — восстановить её можно на странице записи.`,
    giftLink: (workshop: string, date: string, link: string) =>
      [
        `🎁 Ссылка для друга на мастер-класс «${e(workshop)}», ${date}:`,
        '',
        e(link),
        '',
        'Ссылка одноразовая и действует до начала мастер-класса. Друг откроет её, введёт своё имя и займёт ваше место; мы напишем вам, когда это случится.',
      ].join('\n'),
    giftSendButton: '📨 Отправить другу',
    /** Filled in Telegram's share dialog: plain text, not HTML. */
    giftShareText: (workshop: string) => `Передаю тебе своё место на мастер-класс «${workshop}»`,
    giftStart: '🎁 Вам передают место на мастер-класс! Нажмите «Принять место», чтобы посмотреть детали и подтвердить.',
    giftStartNoApp: '🎁 Вам передают место на мастер-класс, но приложение сейчас недоступно. Попробуйте позже.',
    giftAcceptButton: 'Принять место',
    ratedToast: 'Спасибо за оценку!',
    rated: (workshop: string, rating: number) =>
      `🙏 Спасибо за оценку мастер-класса «${e(workshop)}»: ${'⭐'.repeat(rating)}\n\nБудем рады видеть вас снова!`,
    leaveQueueAsk: (workshop: string, date: string) => `Выйти из очереди на мастер-класс «${e(workshop)}», ${date}?`,
    leaveQueueYesButton: 'Да, выйти из очереди',
    leaveQueueNoButton: 'Нет',
    leaveQueueKept: 'Хорошо, вы остаётесь в очереди.',
    notQueued: 'Запись уже не в очереди.',
    leftQueueToast: 'Вы вышли из очереди',
    leftQueue: (workshop: string, date: string) => `Вы вышли из очереди на мастер-класс «${e(workshop)}», ${date}.`,
    offerHead: 'На эти мастер-классы сейчас нет свободных дат. Хотите, напишу, когда появятся новые?',
    offerButton: (title: string) =>
      `🔔 Сообщить о новых датах: ${title.length > 40 ? `${title.slice(0, 39)}…` : title}`,
    subscribedToast: 'Готово! Напишу о новых датах',
    subscribed: (title: string) =>
      `🔔 Готово! Как только появится новая дата мастер-класса${title ? ` «${e(title)}»` : ''}, я напишу.`,
  },
  /** /mydata and /forget. */
  personalData: {
    title: '<b>Ваши данные у нас</b>',
    telegramId: (id: number) => `Telegram ID: <code>${id}</code>`,
    staffAccount: (email: string) => `Аккаунт сотрудника: ${e(email)}`,
    bookings: (n: number) => (n ? `📋 Записи (${n}):` : '📋 Записей нет.'),
    /** `date`: as common.dateTime writes it. */
    booking: (i: number, workshop: string, date: string, state: string) =>
      `${i + 1}. «${e(workshop)}», ${date}: ${common.state[state as keyof typeof common.state] ?? e(state)}`,
    person: (b: { name: string; last_name: string | null; telegram_login: string | null; people_count: number }) =>
      [
        fullName(b),
        ...(b.telegram_login ? [`@${e(b.telegram_login.replace(/^@/, ''))}`] : []),
        `${b.people_count} чел.`,
      ].join(' · '),
    allergy: (type: string | null) => `аллергия: ${e(type ?? 'да')}`,
    comment: (comment: string) => `комментарий: ${e(comment)}`,
    confirmed: 'на напоминание ответили «Приду»',
    rating: (rating: number) => `оценка: ${rating}`,
    subscriptions: (workshops: string[]) =>
      workshops.length
        ? `🔔 Сообщить о новых датах: ${workshops.map((w) => `«${e(w)}»`).join(', ')}`
        : '🔔 Подписок на новые даты нет.',
    staffNote: (note: string) => `📝 Заметка студии о вас: ${e(note)}`,
    fileNote: 'Всё, что хранится (с историей изменений записей), — в файле ниже.',
    forgetHint: 'Удалить свои данные: /forget',
    fileName: 'mydata.json',
    fileCaption: 'Ваши данные в формате JSON',
    forgetAsk: (upcoming: number, staffEmail: string | null, money: ErasureMoneyText) =>
      [
        '<b>Удалить ваши персональные данные?</b>',
        '',
        upcoming > 0
          ? `Ваши предстоящие записи (${upcoming}) будут отменены, места уйдут следующим в очереди.`
          : 'Предстоящих записей у вас нет.',
        'Во всех ваших записях имя, Telegram-аккаунт, комментарий и сведения об аллергии будут удалены; подписки на новые даты, заметка студии о вас и незавершённые диалоги с ботом тоже.',
        'Количество человек и даты останутся в статистике студии без вашего имени.',
        ...(money.credit > 0 ? [`На вашем балансе в студии: ${rsd(money.credit)}.`] : []),
        ...(money.paid > 0 ? [`Оплачено за предстоящие записи: ${rsd(money.paid)}.`] : []),
        ...(money.owed > 0
          ? [
              `После удаления студия будет должна вам ${rsd(money.owed)}, но уже не будет знать, что это вы. Чтобы получить деньги, сначала попросите студию вернуть их, а потом удалите данные.`,
            ]
          : []),
        ...(staffEmail ? [`Уведомления сотрудника ${e(staffEmail)} перестанут приходить в этот чат.`] : []),
        '',
        'Это нельзя отменить.',
      ].join('\n'),
    forgetYes: 'Да, удалить мои данные',
    forgetNo: 'Нет, оставить',
    forgetDone: (cancelled: number, owed: number) =>
      [
        '🗑 Готово: ваши персональные данные удалены.',
        ...(cancelled > 0 ? [`Отменено предстоящих записей: ${cancelled}.`] : []),
        ...(owed > 0 ? [`Студия должна вам ${rsd(owed)}: напишите студии, чтобы получить их.`] : []),
        'Чтобы записаться снова, просто откройте бота: /start',
      ].join('\n'),
    forgetDoneToast: 'Данные удалены',
    forgetKept: 'Хорошо, ничего не удаляем.',
  },
};
