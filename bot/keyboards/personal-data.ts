import type { InlineKeyboardMarkup } from 'grammy/types';
import { texts } from '../texts';
import { encodeCallbackData } from '../callback-data';

export const confirmForgetKeyboard = (T = texts): InlineKeyboardMarkup => ({
  inline_keyboard: [
    [{ text: T.replies.personalData.forgetYes, callback_data: encodeCallbackData({ kind: 'forget', yes: true }) }],
    [{ text: T.replies.personalData.forgetNo, callback_data: encodeCallbackData({ kind: 'forget', yes: false }) }],
  ],
});
