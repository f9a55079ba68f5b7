import type { Language } from '../../contract/language';
import { business } from './business';
import { certificates } from './certificates';
import { common } from './common';
import { customer } from './customer';
import { en } from './en';
import { money } from './money';
import { replies } from './replies';
import { sr } from './sr';
import { staff } from './staff';

/*
 * Every text the bot sends, by audience: what customers are sent (customer), what staff read
 * (staff), the answers to commands and buttons (replies), and what they share (common). Each text is
 * a value or a function of the values it shows; texts escape what they show (HTML parse mode).
 * The studio's language is Russian; customers may read English or Serbian (en.ts, sr.ts: the same
 * type, with the staff texts in Russian).
 */
export const ru = { common, customer, staff, replies, money, business, certificates };

export type BotTexts = typeof ru;

/** The catalogue the bot speaks to staff, and to customers without another language. */
export const texts: BotTexts = ru;

const catalogues: Record<Language, BotTexts> = { ru, en, sr };

/** The catalogue of a customer's language. */
export const textsFor = (language: Language): BotTexts => catalogues[language];
