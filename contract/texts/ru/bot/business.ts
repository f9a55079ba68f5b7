import { plural } from '../../../format';
import { quoted } from '../../html';

const SEATS = ['место', 'места', 'мест'] as const;

/** The bot's answer in the studio's own Telegram account (Telegram Business) to a customer who wrote there. */
export const business = {
  head: 'Здравствуйте! Это автоответ студии: сотрудник ответит вам, как только освободится.',
  sessionsHead: 'Ближайшие мастер-классы со свободными местами:',
  /** `date`: as common.dateTime writes it. */
  session: (workshop: string, date: string, seats: number) =>
    `• ${quoted(workshop)}, ${date}: ${seats} ${plural(seats, SEATS)}`,
  noSessions: 'Сейчас свободных мест нет, но новые даты появляются регулярно.',
  bookHint: 'Записаться можно в приложении по кнопке ниже.',
  button: 'Записаться на мастер-класс',
};
