import type { InlineKeyboardMarkup } from 'grammy/types';

import { encodeCallbackData } from '../callback-data';

/** The /cancel conversation's buttons. */

export const pickRecordKeyboard = (items: { id: number; label: string }[]): InlineKeyboardMarkup => ({
  inline_keyboard: [
    ...items.map((i) => [
      { text: i.label, callback_data: encodeCallbackData({ kind: 'cancel_pick', recordId: i.id }) },
    ]),
    [{ text: 'Не отменять', callback_data: encodeCallbackData({ kind: 'cancel_abort' }) }],
  ],
});

export const confirmCancelKeyboard = (): InlineKeyboardMarkup => ({
  inline_keyboard: [
    [
      { text: 'Да, отменить', callback_data: encodeCallbackData({ kind: 'cancel_confirm', yes: true }) },
      { text: 'Нет', callback_data: encodeCallbackData({ kind: 'cancel_confirm', yes: false }) },
    ],
  ],
});
