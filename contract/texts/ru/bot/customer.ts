import { plural } from '../../../format';
import { escapeHtml as e, quoted } from '../../html';

const queueNote = (position: number | null) =>
  `Ваше место в очереди: ${position ?? '—'}. Мы напишем, как только место освободится.`;

const HOURS = ['час', 'часа', 'часов'] as const;
const DAYS = ['день', 'дня', 'дней'] as const;

/** What the bot sends a customer unasked (the outbox's messages to customers) and the buttons under it. */
export const customer = {
  /** The session's lines under every message about it. */
  schedule: {
    /** `date`: as common.dateTime writes it. */
    date: (date: string) => `📅 ${date}`,
    address: (title: string, description: string | null) => `📍 ${e(title)}${description ? `, ${e(description)}` : ''}`,
    mapLink: (url: string) => `🗺 <a href="${e(url)}">Открыть на карте</a>`,
    /** A map "link" that is not a web address is shown as it is. */
    mapText: (text: string) => `🗺 ${e(text)}`,
  },
  people: (n: number) => `👥 Количество человек: ${n}`,
  queueNote,
  seeYou: 'До встречи!',
  booked: (workshop: string) => `✅ Вы записаны на мастер-класс ${quoted(workshop)}!`,
  queued: (workshop: string) => `⏳ Свободных мест на мастер-класс ${quoted(workshop)} сейчас нет, и вы в очереди.`,
  promoted: (workshop: string) => `🎉 Освободилось место! Вы записаны на мастер-класс ${quoted(workshop)}.`,
  cancelled: (workshop: string) => `❌ Ваша запись на мастер-класс ${quoted(workshop)} отменена.`,
  cancelReason: (reason: string) => `Причина: ${e(reason)}`,
  restoreHint: 'Передумали? Восстановить запись можно на странице записи.',
  restored: (workshop: string) => `✅ Ваша запись на мастер-класс ${quoted(workshop)} восстановлена.`,
  restoredQueued: (workshop: string) =>
    `↩️ Ваша запись на мастер-класс ${quoted(workshop)} восстановлена, но свободных мест сейчас нет, и вы в очереди.`,
  peopleChanged: (workshop: string, before: number, after: number) =>
    `👥 Количество человек в вашей записи на мастер-класс ${quoted(workshop)} изменено: было ${before}, стало ${after}.`,
  peopleMovedToQueue: (position: number | null) =>
    `Свободных мест не хватает, поэтому запись перенесена в очередь. ${queueNote(position)}`,
  seatsYours: 'Места за вами.',
  scheduleChanged: (workshop: string, changed: { date: boolean; address: boolean }) => {
    const what = changed.date && changed.address ? 'дата и адрес' : changed.address ? 'адрес' : 'дата';
    return `✏️ Изменения в мастер-классе ${quoted(workshop)}: новая ${what}. Актуальные данные:`;
  },
  stillQueued: (position: number | null) => `Вы в очереди. ${queueNote(position)}`,
  changeHint: 'Если новое время или место вам не подходит, запись можно отменить на странице записи.',
  scheduleDeleted: (workshop: string, date: string) =>
    `😔 Мастер-класс ${quoted(workshop)} ${date} отменён, и ваша запись на него снята. Приносим извинения!`,
  pickAnother: 'Выбрать другой мастер-класс можно в приложении.',
  /** Staff cancelled the session; the reason follows on its own line. */
  sessionCancelled: (workshop: string, date: string) =>
    `😔 Мастер-класс ${quoted(workshop)} ${date} отменён, и ваша запись на него снята. Приносим извинения!`,
  otherDatesHint: 'Выбрать другую дату этого мастер-класса можно в приложении.',
  /** The reason when too few people signed up by the decision time. */
  minPeopleReason: 'Причина: не набралось минимальное число участников.',
  /** Sent by staff by hand: a plain reminder. */
  manualReminder: (workshop: string) => `🔔 Напоминаем о мастер-классе ${quoted(workshop)}!`,
  waitingForYou: 'Ждём вас!',
  /** The automatic reminder, `hoursBefore` the start; it asks whether they come. */
  reminder: (workshop: string, hoursBefore: number) => {
    const days = hoursBefore / 24;
    const when =
      hoursBefore >= 24 && hoursBefore % 24 === 0
        ? days === 1
          ? 'завтра'
          : `через ${days} ${plural(days, DAYS)}`
        : `через ${hoursBefore} ${plural(hoursBefore, HOURS)}`;
    return `🔔 Напоминаем: ${when} мастер-класс ${quoted(workshop)}!`;
  },
  reminderAsk: 'Вы придёте?',
  thanks: (workshop: string) => `🙏 Спасибо, что были на мастер-классе ${quoted(workshop)}!`,
  rateAsk: 'Как всё прошло? Оцените, пожалуйста, от 1 до 5:',
  newDate: (workshop: string) => `🗓 Новая дата мастер-класса ${quoted(workshop)}!`,
  newDateHint: 'Вы просили сообщить: записывайтесь, пока есть места.',
  givenAway: (workshop: string, receiver: string) =>
    `🎁 Вы передали своё место на мастер-класс ${quoted(workshop)}: теперь запись на имя ${e(receiver)}.`,
  received: (giver: string, workshop: string) =>
    `🎁 ${e(giver)} передаёт вам место на мастер-класс ${quoted(workshop)}!`,
  receivedQueued: (position: number | null) => `Запись пока в очереди. ${queueNote(position)}`,
  buttons: {
    myRecord: 'Моя запись',
    apply: 'Записаться на мастер-класс',
    pickAnother: 'Выбрать другой мастер-класс',
    addToCalendar: '📅 Добавить в календарь',
    coming: '✅ Приду',
    notComing: '❌ Не смогу',
    rating: (n: number) => `${n} ⭐`,
    bookAgain: 'Записаться снова',
    book: 'Записаться',
    otherDates: 'Другие даты',
  },
};
