import type { InlineKeyboardMarkup } from 'grammy/types';

/** Callback data of the /cancel conversation. */
export const CANCEL_PICK = /^cancel:pick:(\d+)$/;
export const CANCEL_ABORT = 'cancel:abort';
export const CANCEL_YES = 'cancel:yes';
export const CANCEL_NO = 'cancel:no';

export const pickRecordKeyboard = (items: { id: number; label: string }[]): InlineKeyboardMarkup => ({
  inline_keyboard: [
    ...items.map((i) => [{ text: i.label, callback_data: `cancel:pick:${i.id}` }]),
    [{ text: 'Не отменять', callback_data: CANCEL_ABORT }],
  ],
});

export const confirmCancelKeyboard = (): InlineKeyboardMarkup => ({
  inline_keyboard: [
    [
      { text: 'Да, отменить', callback_data: CANCEL_YES },
      { text: 'Нет', callback_data: CANCEL_NO },
    ],
  ],
});
