import type { InlineKeyboardMarkup } from 'grammy/types';
import { PD } from '../messages';

/** Callback data of /forget's confirmation (well under Telegram's 64 bytes). */
export const FORGET_YES = 'forget:yes';
export const FORGET_NO = 'forget:no';

export const confirmForgetKeyboard = (): InlineKeyboardMarkup => ({
  inline_keyboard: [
    [{ text: PD.forgetYes, callback_data: FORGET_YES }],
    [{ text: PD.forgetNo, callback_data: FORGET_NO }],
  ],
});
