import type { InlineKeyboardButton } from 'grammy/types';

/*
 * Callback data of the customer's journey (each well under Telegram's 64 bytes):
 * rem:<answer>:<record> on reminders, rate:<record>:<1–5> after the class,
 * queue:<step>:<record> to leave a queue from /my, sub:<workshop> for new dates.
 */
export const REMINDER_DATA = /^rem:(yes|no|cancel|gift|back):(\d{1,10})$/;
export const RATE_DATA = /^rate:(\d{1,10}):([1-5])$/;
export const QUEUE_DATA = /^queue:(leave|yes|no):(\d{1,10})$/;
export const SUBSCRIBE_DATA = /^sub:(\d{1,10})$/;

export type ReminderAnswer = 'yes' | 'no' | 'cancel' | 'gift' | 'back';

export const reminderButton = (text: string, answer: ReminderAnswer, recordId: number): InlineKeyboardButton => ({
  text,
  callback_data: `rem:${answer}:${recordId}`,
});

export const ratingButtons = (recordId: number): InlineKeyboardButton[] =>
  [1, 2, 3, 4, 5].map((n) => ({ text: `${n} ⭐`, callback_data: `rate:${recordId}:${n}` }));

export const queueButton = (text: string, step: 'leave' | 'yes' | 'no', recordId: number): InlineKeyboardButton => ({
  text,
  callback_data: `queue:${step}:${recordId}`,
});

export const subscribeButton = (text: string, workshopId: number): InlineKeyboardButton => ({
  text,
  callback_data: `sub:${workshopId}`,
});

/** A "share" link: Telegram opens the chat picker with the link and the text filled in. */
export const shareUrl = (url: string, text: string) =>
  `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`;
