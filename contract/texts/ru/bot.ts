import { business } from './bot/business';
import { certificates } from './bot/certificates';
import { common } from './bot/common';
import { customer } from './bot/customer';
import { money } from './bot/money';
import { receipts } from './bot/receipts';
import { replies } from './bot/replies';

/*
 * What the bot says to customers, by occasion: what they are sent unasked (customer), the answers to
 * commands and buttons (replies), money, the studio's Business auto-answer, gift certificates, fiscal
 * receipts, and what they share (common). Each text is a value or a function of the values it shows;
 * texts escape what they show (HTML parse mode). This catalogue defines the keys; en and sr have the same ones.
 */
export const bot = { common, customer, replies, money, business, certificates, receipts };

export type BotTexts = typeof bot;
