import type { InlineKeyboardMarkup } from 'grammy/types';

/** A rendered message, ready for sendMessage (its own file: the renderers it is shared by import it). */
export interface OutgoingMessage {
  text: string;
  reply_markup?: InlineKeyboardMarkup;
}
