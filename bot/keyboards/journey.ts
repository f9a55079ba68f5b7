import type { InlineKeyboardButton } from 'grammy/types';
import { encodeCallbackData, type QueueStep, type ReminderAnswer } from '../callback-data';
import { texts } from '../texts';

export type { ReminderAnswer } from '../callback-data';

export const reminderButton = (text: string, answer: ReminderAnswer, recordId: number): InlineKeyboardButton => ({
  text,
  callback_data: encodeCallbackData({ kind: 'reminder', answer, recordId }),
});

export const ratingButtons = (recordId: number, label = texts.customer.buttons.rating): InlineKeyboardButton[] =>
  ([1, 2, 3, 4, 5] as const).map((rating) => ({
    text: label(rating),
    callback_data: encodeCallbackData({ kind: 'rate', recordId, rating }),
  }));

export const queueButton = (text: string, step: QueueStep, recordId: number): InlineKeyboardButton => ({
  text,
  callback_data: encodeCallbackData({ kind: 'queue', step, recordId }),
});

export const subscribeButton = (text: string, workshopId: number): InlineKeyboardButton => ({
  text,
  callback_data: encodeCallbackData({ kind: 'subscribe', workshopId }),
});

/** A "share" link: Telegram opens the chat picker with the link and the text filled in. */
export const shareUrl = (url: string, text: string) =>
  `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`;
