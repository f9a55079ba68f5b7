import type { InlineKeyboardMarkup } from 'grammy/types';
import { PD } from '../messages';
import { encodeCallbackData } from '../callback-data';

export const confirmForgetKeyboard = (): InlineKeyboardMarkup => ({
  inline_keyboard: [
    [{ text: PD.forgetYes, callback_data: encodeCallbackData({ kind: 'forget', yes: true }) }],
    [{ text: PD.forgetNo, callback_data: encodeCallbackData({ kind: 'forget', yes: false }) }],
  ],
});
