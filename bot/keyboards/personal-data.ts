import type { InlineKeyboardMarkup } from 'grammy/types';
import { texts } from '../texts';
import { encodeCallbackData } from '../callback-data';

export const confirmForgetKeyboard = (): InlineKeyboardMarkup => ({
  inline_keyboard: [
    [{ text: texts.replies.personalData.forgetYes, callback_data: encodeCallbackData({ kind: 'forget', yes: true }) }],
    [{ text: texts.replies.personalData.forgetNo, callback_data: encodeCallbackData({ kind: 'forget', yes: false }) }],
  ],
});
