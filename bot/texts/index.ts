import { common } from './common';
import { customer } from './customer';
import { money } from './money';
import { replies } from './replies';
import { staff } from './staff';

/*
 * Every text the bot sends, by audience: what customers are sent (customer), what staff read
 * (staff), the answers to commands and buttons (replies), and what they share (common). Each text is
 * a value or a function of the values it shows; texts escape what they show (HTML parse mode).
 * The studio's language is Russian; a catalogue in another language is another value of BotTexts.
 */
export const ru = { common, customer, staff, replies, money };

export type BotTexts = typeof ru;

/** The catalogue the bot speaks. */
export const texts: BotTexts = ru;
