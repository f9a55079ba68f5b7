import type { InlineKeyboardMarkup } from 'grammy/types';
import { encodeCallbackData } from '../callback-data';
import { texts } from '../texts';

/** The /cancel conversation's buttons. */
export const pickRecordKeyboard = (items: { id: number; label: string }[], T = texts): InlineKeyboardMarkup => ({
  inline_keyboard: [
    ...items.map((i) => [
      { text: i.label, callback_data: encodeCallbackData({ kind: 'cancel_pick', recordId: i.id }) },
    ]),
    [{ text: T.replies.cancel.abortButton, callback_data: encodeCallbackData({ kind: 'cancel_abort' }) }],
  ],
});

export const confirmCancelKeyboard = (T = texts): InlineKeyboardMarkup => ({
  inline_keyboard: [
    [
      {
        text: T.replies.cancel.yesButton,
        callback_data: encodeCallbackData({ kind: 'cancel_confirm', yes: true }),
      },
      {
        text: T.replies.cancel.noButton,
        callback_data: encodeCallbackData({ kind: 'cancel_confirm', yes: false }),
      },
    ],
  ],
});
