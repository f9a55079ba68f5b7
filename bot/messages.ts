import type { InlineKeyboardMarkup } from 'grammy/types';
import { RECORD_SOURCES, type PersonalDataExport } from '../contract';
import { daysBetween, formatDateTime, plural } from '../contract/format';
import type {
  CustomerNotification,
  DigestPayload,
  DigestPerson,
  Notification,
  RecordPayload,
  ScheduleSnapshot,
  StaffNotification,
} from '../core/notify/notifications';
import { applyButton, inlineKeyboard, recordButton, urlButton, webAppButton } from './keyboards/webapp';
import { ratingButtons, reminderButton } from './keyboards/journey';
import type { RenderedMessage } from './outbox';

/*
 * Every Russian text the bot sends, in one place: the outbox notifications (rendered at delivery
 * time from the row's kind and payload) and the replies of the bot's commands. HTML parse mode:
 * everything that comes from users or staff goes through escapeHtml.
 */

export interface RenderContext {
  publicUrl: string;
  timezone: string;
  businessName: string;
  /** The path of a booking's signed .ics, for "Добавить в календарь". */
  calendarPath(recordId: number): string;
}

export interface OutgoingMessage {
  text: string;
  reply_markup?: InlineKeyboardMarkup;
}

/** Telegram's limit is 4096 characters of text; keep a margin for the markup. */
const MAX_TEXT = 3900;

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const e = escapeHtml;

const title = (s: { workshop_title: string }) => `«${e(s.workshop_title)}»`;
const isHttpUrl = (u: string) => /^https?:\/\/\S+$/i.test(u);

function scheduleLines(s: ScheduleSnapshot, rc: RenderContext): string[] {
  const address = `📍 ${e(s.address_title)}${s.address_description ? `, ${e(s.address_description)}` : ''}`;
  const map = isHttpUrl(s.map_link) ? `🗺 <a href="${e(s.map_link)}">Открыть на карте</a>` : `🗺 ${e(s.map_link)}`;
  return [`📅 ${formatDateTime(s.date, rc.timezone)}`, address, map];
}

export const STATE_LABEL = { ACTIVE: '✅ Активна', QUEUED: '⏳ В очереди', CANCELLED: '❌ Отменена' } as const;

const people = (n: number) => `👥 Количество человек: ${n}`;
const queueNote = (position: number | null) =>
  `Ваше место в очереди: ${position ?? '—'}. Мы напишем, как только место освободится.`;

const fullName = (p: { name: string; last_name: string | null }) => e([p.name, p.last_name].filter(Boolean).join(' '));
const handle = (login: string | null) => (login ? ` (@${e(login.replace(/^@/, ''))})` : '');
const sourceLabel = (source: string | null) =>
  source ? e((RECORD_SOURCES as Record<string, string>)[source] ?? source) : '—';
const yesNo = (b: boolean) => (b ? 'да' : 'нет');

/** Joins lines, dropping whole lines from the end (with a note) when the text would be too long. */
function fit(lines: string[]): string {
  const out: string[] = [];
  let length = 0;
  for (let i = 0; i < lines.length; i++) {
    if (length + lines[i].length + 1 > MAX_TEXT) {
      out.push(`… и ещё ${lines.length - i} строк(и): полный список в расписании.`);
      break;
    }
    out.push(lines[i]);
    length += lines[i].length + 1;
  }
  return out.join('\n');
}

function customerMessage(n: CustomerNotification, rc: RenderContext): OutgoingMessage {
  const { schedule: s, record: r } = n.payload;
  const myRecord = inlineKeyboard([[recordButton(rc.publicUrl, r.record_id)]]);
  // Once the seats are theirs, the confirmation offers the date for the customer's calendar.
  const withCalendar = inlineKeyboard([
    [recordButton(rc.publicUrl, r.record_id)],
    [urlButton(rc.publicUrl, '📅 Добавить в календарь', rc.calendarPath(r.record_id))],
  ]);
  const details = [...scheduleLines(s, rc), people(r.people_count)];
  const msg = (head: string[], tail: string[] = [], markup = myRecord): OutgoingMessage => ({
    text: fit([...head, '', ...details, ...(tail.length ? ['', ...tail] : [])]),
    reply_markup: markup,
  });
  switch (n.kind) {
    case 'record.booked':
      return msg([`✅ Вы записаны на мастер-класс ${title(s)}!`], ['До встречи!'], withCalendar);
    case 'record.queued':
      return msg([
        `⏳ Свободных мест на мастер-класс ${title(s)} сейчас нет, и вы в очереди.`,
        queueNote(r.queue_position),
      ]);
    case 'record.promoted':
      return msg([`🎉 Освободилось место! Вы записаны на мастер-класс ${title(s)}.`], ['До встречи!'], withCalendar);
    case 'record.cancelled':
      return msg(
        [
          `❌ Ваша запись на мастер-класс ${title(s)} отменена.`,
          ...(r.cancel_reason ? [`Причина: ${e(r.cancel_reason)}`] : []),
        ],
        ['Передумали? Восстановить запись можно на странице записи.'],
      );
    case 'record.restored':
      return r.state === 'QUEUED'
        ? msg([
            `↩️ Ваша запись на мастер-класс ${title(s)} восстановлена, но свободных мест сейчас нет, и вы в очереди.`,
            queueNote(r.queue_position),
          ])
        : msg([`✅ Ваша запись на мастер-класс ${title(s)} восстановлена.`], ['До встречи!']);
    case 'record.people_changed': {
      const head = [
        `👥 Количество человек в вашей записи на мастер-класс ${title(s)} изменено: было ${n.payload.previous_people_count}, стало ${r.people_count}.`,
      ];
      if (r.state === 'QUEUED')
        head.push(`Свободных мест не хватает, поэтому запись перенесена в очередь. ${queueNote(r.queue_position)}`);
      else if (r.state === 'ACTIVE') head.push('Места за вами.');
      return msg(head);
    }
    case 'schedule.changed': {
      const { changed } = n.payload;
      const what = changed.date && changed.address ? 'дата и адрес' : changed.address ? 'адрес' : 'дата';
      const head = [`✏️ Изменения в мастер-классе ${title(s)}: новая ${what}. Актуальные данные:`];
      return msg(
        head,
        r.state === 'QUEUED'
          ? [`Вы в очереди. ${queueNote(r.queue_position)}`]
          : ['Если новое время или место вам не подходит, запись можно отменить на странице записи.'],
      );
    }
    case 'schedule.deleted':
      return {
        text: fit([
          `😔 Мастер-класс ${title(s)} ${formatDateTime(s.date, rc.timezone)} отменён, и ваша запись на него снята. Приносим извинения!`,
          '',
          'Выбрать другой мастер-класс можно в приложении.',
        ]),
        reply_markup: inlineKeyboard([[applyButton(rc.publicUrl, 'Выбрать другой мастер-класс')]]),
      };
    case 'schedule.reminder':
      // Sent by staff by hand: a plain reminder. The automatic ones ask (reminderMessage).
      return msg([`🔔 Напоминаем о мастер-классе ${title(s)}!`], ['Ждём вас!']);
    case 'record.thanks':
      return {
        text: fit([
          `🙏 Спасибо, что были на мастер-классе ${title(s)}!`,
          '',
          'Как всё прошло? Оцените, пожалуйста, от 1 до 5:',
        ]),
        reply_markup: thanksKeyboard(rc, r.record_id),
      };
    case 'record.given_away':
      return msg(
        [`🎁 Вы передали своё место на мастер-класс ${title(s)}: теперь запись на имя ${e(n.payload.receiver_name)}.`],
        [],
        undefined,
      );
    case 'record.received':
      return msg(
        [
          `🎁 ${e(n.payload.giver_name)} передаёт вам место на мастер-класс ${title(s)}!`,
          ...(r.state === 'QUEUED' ? [`Запись пока в очереди. ${queueNote(r.queue_position)}`] : []),
        ],
        ['До встречи!'],
      );
  }
}

/** "Записаться снова" (the workshop's next dates, with the party size and allergy of this booking) and the rating. */
export const thanksKeyboard = (rc: RenderContext, recordId: number, rated?: number) =>
  inlineKeyboard([
    rated ? [] : ratingButtons(recordId),
    [webAppButton(rc.publicUrl, 'Записаться снова', `/apply?again=${recordId}`)],
  ]);

const HOURS = ['час', 'часа', 'часов'] as const;

/** The automatic reminder: the session, and "Приду" / "Не смогу". */
export function reminderText(s: ScheduleSnapshot, peopleCount: number, hoursBefore: number, rc: RenderContext) {
  const when =
    hoursBefore >= 24 && hoursBefore % 24 === 0
      ? `${hoursBefore / 24 === 1 ? 'завтра' : `через ${hoursBefore / 24} ${plural(hoursBefore / 24, ['день', 'дня', 'дней'])}`}`
      : `через ${hoursBefore} ${plural(hoursBefore, HOURS)}`;
  return fit([
    `🔔 Напоминаем: ${when} мастер-класс ${title(s)}!`,
    '',
    ...scheduleLines(s, rc),
    people(peopleCount),
    '',
    'Вы придёте?',
  ]);
}

export const reminderKeyboard = (rc: RenderContext, recordId: number) =>
  inlineKeyboard([
    [reminderButton('✅ Приду', 'yes', recordId), reminderButton('❌ Не смогу', 'no', recordId)],
    [recordButton(rc.publicUrl, recordId)],
  ]);

function reminderMessage(
  n: Extract<Notification, { kind: 'schedule.reminder' }>,
  rc: RenderContext,
  hoursBefore: number,
): RenderedMessage {
  const { schedule: s, record: r, venue } = n.payload;
  const message = {
    text: reminderText(s, r.people_count, hoursBefore, rc),
    reply_markup: reminderKeyboard(rc, r.record_id),
  };
  // The last reminder is followed by the place as a pin.
  return venue ? [message, { method: 'sendVenue', params: venue }] : message;
}

function newDatesMessage(n: Extract<Notification, { kind: 'workshop.new_dates' }>, rc: RenderContext): OutgoingMessage {
  const s = n.payload.schedule;
  return {
    text: fit([
      `🗓 Новая дата мастер-класса ${title(s)}!`,
      '',
      ...scheduleLines(s, rc),
      '',
      'Вы просили сообщить: записывайтесь, пока есть места.',
    ]),
    reply_markup: inlineKeyboard([
      [webAppButton(rc.publicUrl, 'Записаться', `/apply?workshop=${n.payload.workshop_id}`)],
    ]),
  };
}

function staffRecordLines(p: RecordPayload): string[] {
  const r = p.record;
  return [`Имя: ${fullName(r)}${handle(r.telegram_login)}`, `Человек: ${r.people_count}`];
}

function staffMessage(n: StaffNotification, rc: RenderContext): OutgoingMessage {
  const p = n.payload;
  const { schedule: s, record: r } = p;
  const markup = inlineKeyboard([[urlButton(rc.publicUrl, 'Открыть расписание', '/schedule')]]);
  const when = `${title(s)}, ${formatDateTime(s.date, rc.timezone)}`;
  if (n.kind === 'staff.transferred') {
    return {
      text: fit([
        `🔁 Место передано: ${when}`,
        '',
        `Было: ${e(n.payload.giver_name)}`,
        `Стало: ${e(n.payload.receiver_name)}${handle(r.telegram_login)}`,
        `Человек: ${r.people_count}`,
        `Статус: ${r.state === 'QUEUED' ? `${STATE_LABEL.QUEUED} (место ${r.queue_position ?? '—'})` : STATE_LABEL[r.state]}`,
        `Аллергия: ${r.has_allergy ? e(r.allergy_type || 'да') : 'нет'}`,
      ]),
      reply_markup: markup,
    };
  }
  if (n.kind === 'staff.new_record') {
    const state =
      r.state === 'QUEUED' ? `${STATE_LABEL.QUEUED} (место ${r.queue_position ?? '—'})` : STATE_LABEL[r.state];
    return {
      text: fit([
        `🆕 Новая запись на ${when}`,
        '',
        ...staffRecordLines(p),
        `Статус: ${state}`,
        `Аллергия: ${r.has_allergy ? e(r.allergy_type || 'да') : 'нет'}`,
        `Комментарий: ${r.comment ? e(r.comment) : '—'}`,
        `Источник: ${sourceLabel(r.source)}`,
        `Впервые: ${yesNo(r.is_first_time)}`,
      ]),
      reply_markup: markup,
    };
  }
  return {
    text: fit([
      `❌ Отмена записи на ${when}`,
      '',
      ...staffRecordLines(p),
      `Причина: ${r.cancel_reason ? e(r.cancel_reason) : '—'}`,
    ]),
    reply_markup: markup,
  };
}

/** "Сегодня" / "Завтра" relative to `now` in the business zone, else nothing. */
function relativeDay(iso: string, rc: RenderContext, now: Date): string {
  const days = daysBetween(now, iso, rc.timezone);
  return days === 0 ? 'Сегодня' : days === 1 ? 'Завтра' : '';
}

function personLine(i: number, x: DigestPerson): string {
  const extra = [`${x.people_count} чел.`, ...(x.is_first_time ? ['впервые'] : [])].join(', ');
  return `${i + 1}. ${fullName(x)}${handle(x.telegram_login)}: ${extra}`;
}

function digestMessage(p: DigestPayload, rc: RenderContext, now: Date): OutgoingMessage {
  const s = p.schedule;
  const day = relativeDay(s.date, rc, now);
  const lines = [
    `📋 ${day ? `${day} ` : ''}мастер-класс ${title(s)}`,
    ...scheduleLines(s, rc),
    '',
    `👥 Участники: ${p.participants.length} ${plural(p.participants.length, ['запись', 'записи', 'записей'])}, всего человек: ${p.total_people} из ${p.capacity}`,
    ...(p.participants.length ? p.participants.map((x, i) => personLine(i, x)) : ['Пока никто не записан.']),
    '',
    p.allergies.length ? '⚠️ Аллергии:' : '⚠️ Аллергии: нет',
    ...p.allergies.map((a) => `• ${e(a.name)}: ${e(a.allergy)}`),
    '',
    p.comments.length ? '💬 Комментарии:' : '💬 Комментарии: нет',
    ...p.comments.map((c) => `• ${e(c.name)}: ${e(c.comment)}`),
    '',
    p.queue.length ? `⏳ Очередь: ${p.queue.length}` : '⏳ Очередь: пусто',
    ...p.queue.map((x, i) => personLine(i, x)),
  ];
  return {
    text: fit(lines),
    reply_markup: inlineKeyboard([[urlButton(rc.publicUrl, 'Открыть расписание', '/schedule')]]),
  };
}

/** The text and buttons of a notification; a reminder with a map pin is two calls (the message, then the venue). */
export function renderNotification(n: Notification, rc: RenderContext, now = new Date()): RenderedMessage {
  if (n.kind === 'staff.digest') return digestMessage(n.payload, rc, now);
  if (n.kind === 'staff.new_record' || n.kind === 'staff.cancelled' || n.kind === 'staff.transferred')
    return staffMessage(n, rc);
  if (n.kind === 'workshop.new_dates') return newDatesMessage(n, rc);
  if (n.kind === 'schedule.reminder' && n.payload.hours_before !== undefined)
    return reminderMessage(n, rc, n.payload.hours_before);
  return customerMessage(n, rc);
}

/* ---------- replies of the bot's commands ---------- */

export const BOT_COMMANDS = [
  { command: 'start', description: 'Начать и записаться на мастер-класс' },
  { command: 'my', description: 'Мои записи' },
  { command: 'cancel', description: 'Отменить запись' },
  { command: 'help', description: 'Помощь' },
  { command: 'mydata', description: 'Мои данные: что о вас хранится' },
  { command: 'forget', description: 'Удалить мои данные' },
];

export const MENU_BUTTON_TEXT = 'Записаться';

export const T = {
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
  myEmpty: 'У вас пока нет предстоящих записей.',
  myHead: 'Ваши предстоящие записи:',
  myItem: (i: number, workshop: string, date: string, state: string, peopleCount: number) =>
    `${i + 1}. «${e(workshop)}», ${date}\n    ${state} · ${peopleCount} чел.`,
  myButton: (i: number, workshop: string, shortDate: string) => `${i + 1}. ${workshop}, ${shortDate}`,
  queuedAt: (position: number) => `${STATE_LABEL.QUEUED} (место ${position})`,
  cancelNone: 'У вас нет предстоящих записей, которые можно отменить.',
  cancelPick: 'Какую запись отменить?',
  cancelPickButton: (workshop: string, shortDate: string) => `${workshop}, ${shortDate}`,
  cancelPickAgain: 'Выберите запись кнопкой выше или нажмите «Не отменять».',
  cancelNotYours: 'Эта запись недоступна. Выберите запись кнопкой выше.',
  cancelAskReason: (workshop: string, date: string) =>
    `Отменяем запись на «${e(workshop)}», ${date}.\n\nНапишите, пожалуйста, причину отмены одним сообщением.`,
  cancelReasonAgain: 'Напишите причину отмены текстом (до 1000 символов).',
  cancelConfirm: (workshop: string, date: string, reason: string) =>
    `Отменить запись на «${e(workshop)}», ${date}?\n\nПричина: ${e(reason)}`,
  cancelConfirmAgain: 'Нажмите «Да, отменить» или «Нет».',
  cancelDone: '❌ Запись отменена. Передумаете — восстановить её можно на странице записи (/my).',
  cancelDoneToast: 'Запись отменена',
  cancelKept: 'Хорошо, запись остаётся в силе.',
  cancelFailed: (detail: string) => `Не получилось отменить запись: ${e(detail)}`,
  linkDone: (email: string) =>
    `✅ Готово! Уведомления для ${e(email)} теперь будут приходить в этот чат.\nОтключить их можно в профиле (Настройки → Профиль).`,
  linkInvalid: 'Ссылка недействительна или устарела. Получите новую в профиле (Настройки → Профиль).',
  error: 'Что-то пошло не так. Попробуйте ещё раз чуть позже.',
};

/* ---------- /mydata and /forget ---------- */

/** The readable part of /mydata (the JSON file beside it has everything). */
export function personalDataText(x: PersonalDataExport, timezone: string): string {
  const bookings = x.bookings.map((b, i) => {
    const person = [
      fullName(b),
      ...(b.telegram_login ? [`@${e(b.telegram_login.replace(/^@/, ''))}`] : []),
      `${b.people_count} чел.`,
    ].join(' · ');
    const health = [
      ...(b.has_allergy ? [`аллергия: ${e(b.allergy_type ?? 'да')}`] : []),
      ...(b.comment ? [`комментарий: ${e(b.comment)}`] : []),
    ];
    const answers = [
      ...(typeof b.confirmed_at === 'string' ? ['на напоминание ответили «Приду»'] : []),
      ...(typeof b.rating === 'number' ? [`оценка: ${b.rating}`] : []),
    ];
    return [
      `${i + 1}. «${e(b.workshop)}», ${formatDateTime(b.date, timezone)}: ${STATE_LABEL[b.state as keyof typeof STATE_LABEL] ?? e(b.state)}`,
      `    ${person}`,
      ...(health.length || answers.length ? [`    ${[...health, ...answers].join(' · ')}`] : []),
    ].join('\n');
  });
  return fit([
    '<b>Ваши данные у нас</b>',
    '',
    `Telegram ID: <code>${x.telegram_id}</code>`,
    ...(x.staff_account ? [`Аккаунт сотрудника: ${e(x.staff_account.email)}`] : []),
    '',
    x.bookings.length ? `📋 Записи (${x.bookings.length}):` : '📋 Записей нет.',
    ...bookings,
    '',
    x.subscriptions.length
      ? `🔔 Сообщить о новых датах: ${x.subscriptions.map((s) => `«${e(s.workshop)}»`).join(', ')}`
      : '🔔 Подписок на новые даты нет.',
    '',
    'Всё, что хранится (с историей изменений записей), — в файле ниже.',
    'Удалить свои данные: /forget',
  ]);
}

export const PERSONAL_DATA_FILE = 'mydata.json';

export const PD = {
  fileCaption: 'Ваши данные в формате JSON',
  forgetAsk: (upcoming: number, staffEmail: string | null) =>
    [
      '<b>Удалить ваши персональные данные?</b>',
      '',
      upcoming > 0
        ? `Ваши предстоящие записи (${upcoming}) будут отменены, места уйдут следующим в очереди.`
        : 'Предстоящих записей у вас нет.',
      'Во всех ваших записях имя, Telegram-аккаунт, комментарий и сведения об аллергии будут удалены; подписки на новые даты и незавершённые диалоги с ботом тоже.',
      'Количество человек и даты останутся в статистике студии без вашего имени.',
      ...(staffEmail ? [`Уведомления сотрудника ${e(staffEmail)} перестанут приходить в этот чат.`] : []),
      '',
      'Это нельзя отменить.',
    ].join('\n'),
  forgetYes: 'Да, удалить мои данные',
  forgetNo: 'Нет, оставить',
  forgetDone: (cancelled: number) =>
    [
      '🗑 Готово: ваши персональные данные удалены.',
      ...(cancelled > 0 ? [`Отменено предстоящих записей: ${cancelled}.`] : []),
      'Чтобы записаться снова, просто откройте бота: /start',
    ].join('\n'),
  forgetDoneToast: 'Данные удалены',
  forgetKept: 'Хорошо, ничего не удаляем.',
};

/* ---------- the customer's journey: replies to reminder, rating, queue and new-dates buttons ---------- */

export const J = {
  notYours: 'Эта запись недоступна.',
  confirmedToast: 'Спасибо, ждём вас!',
  confirmed: (workshop: string, date: string) =>
    `✅ Вы подтвердили, что придёте на мастер-класс «${e(workshop)}», ${date}.\n\nЖдём вас!`,
  cantCome: (workshop: string, date: string) =>
    `Не получается прийти на мастер-класс «${e(workshop)}», ${date}?\n\nМожно отменить запись или передать место другу.`,
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
  giftShareText: (workshop: string) => `Передаю тебе своё место на мастер-класс «${workshop}»`,
  giftStart: '🎁 Вам передают место на мастер-класс! Нажмите «Принять место», чтобы посмотреть детали и подтвердить.',
  giftStartNoApp: '🎁 Вам передают место на мастер-класс, но приложение сейчас недоступно. Попробуйте позже.',
  ratedToast: 'Спасибо за оценку!',
  rated: (workshop: string, rating: number) =>
    `🙏 Спасибо за оценку мастер-класса «${e(workshop)}»: ${'⭐'.repeat(rating)}\n\nБудем рады видеть вас снова!`,
  leaveQueueAsk: (workshop: string, date: string) => `Выйти из очереди на мастер-класс «${e(workshop)}», ${date}?`,
  leaveQueueKept: 'Хорошо, вы остаётесь в очереди.',
  notQueued: 'Запись уже не в очереди.',
  leftQueueToast: 'Вы вышли из очереди',
  leftQueue: (workshop: string, date: string) => `Вы вышли из очереди на мастер-класс «${e(workshop)}», ${date}.`,
  leaveQueueButton: (i: number) => `Выйти из очереди: ${i + 1}`,
  offerHead: 'На эти мастер-классы сейчас нет свободных дат. Хотите, напишу, когда появятся новые?',
  offerButton: (title: string) => `🔔 Сообщить о новых датах: ${title.length > 40 ? `${title.slice(0, 39)}…` : title}`,
  subscribedToast: 'Готово! Напишу о новых датах',
  subscribed: (title: string) =>
    `🔔 Готово! Как только появится новая дата мастер-класса${title ? ` «${e(title)}»` : ''}, я напишу.`,
};
