import { z } from './zod';
import { formatMoney } from './format';
import { BANK_ACCOUNT_MSG, Prepayment, RefundTo, normalizeBankAccount } from './money';
import { DEFAULT_CERTIFICATE_AMOUNTS } from './certificates';
import { TELEGRAM_RSD } from './telegram-limits';

/** Hours before a session at which a reminder is sent; each offset at most once per booking. */
export const REMINDER_HOURS_MAX = 336;

export const DEFAULT_PRIVACY_TEXT =
  'Мы храним имя, фамилию, Telegram-аккаунт, количество человек, комментарий и сведения об аллергии, ' +
  'чтобы провести мастер-класс и связаться с вами по записи. Сведения об аллергии удаляются вскоре после ' +
  'мастер-класса, остальные данные обезличиваются по истечении срока хранения. Посмотреть свои данные ' +
  'можно командой /mydata, удалить — командой /forget в боте.';

/** A session under its minimum: «отменять автоматически» or «спрашивать персонал». */
export const MinPeopleAction = z.enum(['cancel', 'ask'], {
  error: 'Выберите: отменять автоматически или спрашивать персонал',
});
export type MinPeopleAction = z.infer<typeof MinPeopleAction>;
/** Without an answer from staff: cancel the session or run it. */
export const MinPeopleDefault = z.enum(['cancel', 'run'], {
  error: 'Выберите, что делать без ответа: отменить или провести',
});
export type MinPeopleDefault = z.infer<typeof MinPeopleDefault>;

const hours = z
  .number({ error: 'Введите число часов' })
  .int('Введите целое число часов')
  .min(1, 'Напоминание: не раньше чем за 1 час')
  .max(REMINDER_HOURS_MAX, `Напоминание: не больше чем за ${REMINDER_HOURS_MAX} часов`);

/** The studio's own rules, stored in the database and edited by a superuser. */
export const BusinessSettings = z.object({
  /** Reminders before each session, in hours (e.g. [24, 3]). */
  reminder_hours: z
    .array(hours)
    .max(5, 'Не больше 5 напоминаний')
    .refine((list) => new Set(list).size === list.length, 'Часы напоминаний не должны повторяться'),
  /** Customers cannot cancel, restore or change the people count within this many hours of the start; 0: until the start. */
  change_deadline_hours: z
    .number({ error: 'Введите число часов' })
    .int('Введите целое число часов')
    .min(0, 'Срок изменений: не меньше 0 часов')
    .max(336, 'Срок изменений: не больше 336 часов'),
  /** How to reach the studio: shown when a change is refused. */
  contact: z.string().trim().max(500, 'Контакты: не больше 500 символов'),
  /** The privacy notice the mini-app links to from its consent line. */
  privacy_text: z
    .string()
    .trim()
    .min(1, 'Укажите текст о персональных данных')
    .max(10_000, 'Текст о персональных данных: не больше 10000 символов'),
  /** Bookings older than this are anonymised. */
  retention_days: z
    .number({ error: 'Введите число дней' })
    .int('Введите целое число дней')
    .min(30, 'Срок хранения: не меньше 30 дней')
    .max(3650, 'Срок хранения: не больше 3650 дней'),
  /** Allergy details are erased this many days after the session. */
  allergy_retention_days: z
    .number({ error: 'Введите число дней' })
    .int('Введите целое число дней')
    .min(1, 'Срок хранения аллергий: не меньше 1 дня')
    .max(3650, 'Срок хранения аллергий: не больше 3650 дней'),
  /** none: paid at the studio; deposit or full: paid when booking, the seats held until then. */
  prepayment: Prepayment,
  deposit_percent: z
    .number({ error: 'Введите процент' })
    .int('Введите целый процент')
    .min(1, 'Депозит: от 1 до 100%')
    .max(100, 'Депозит: от 1 до 100%'),
  /** Minutes an unpaid booking keeps its seats (never past the start). */
  payment_hold_minutes: z
    .number({ error: 'Введите число минут' })
    .int('Введите целое число минут')
    .min(5, 'Время на оплату: не меньше 5 минут')
    .max(10_080, 'Время на оплату: не больше 10080 минут (неделя)'),
  /** Where a cancelled booking's money goes: the customer's studio credit, or back to them (staff record it). */
  refund_to: RefundTo,
  /** The studio's account for IPS QR transfers, 18 digits; empty: no transfers. */
  bank_account: z
    .string()
    .trim()
    .refine((s) => s === '' || normalizeBankAccount(s) !== null, BANK_ACCOUNT_MSG),
  /** The transfer's recipient: the studio's name and town. */
  bank_recipient: z.string().trim().max(70, 'Получатель: не больше 70 символов'),
  /** The bot answers customers in the studio's own Telegram account (Telegram Business). */
  business_auto_reply: z.boolean({ error: 'Укажите, отвечает ли бот в аккаунте студии' }),
  /** In one business chat the bot answers at most once in this many hours. */
  business_reply_hours: z
    .number({ error: 'Введите число часов' })
    .int('Введите целое число часов')
    .min(1, 'Автоответ: не чаще раза в 1 час')
    .max(720, 'Автоответ: не реже раза в 720 часов'),
  /** Hours before the start at which a session is checked against its minimum of participants. */
  min_people_decision_hours: z
    .number({ error: 'Введите число часов' })
    .int('Введите целое число часов')
    .min(1, 'Решение о минимуме: не позже чем за 1 час')
    .max(336, 'Решение о минимуме: не раньше чем за 336 часов'),
  /** A session under its minimum: cancelled at once, or staff are asked (with a default after the grace). */
  min_people_action: MinPeopleAction,
  /** Hours staff have to answer before the default happens (never past the start). */
  min_people_grace_hours: z
    .number({ error: 'Введите число часов' })
    .int('Введите целое число часов')
    .min(1, 'Время на ответ: не меньше 1 часа')
    .max(168, 'Время на ответ: не больше 168 часов'),
  /** What happens when staff were asked and nobody answered in time. */
  min_people_default: MinPeopleDefault,
  /** The gift certificates' amounts a customer may buy in the mini-app, RSD. */
  certificate_amounts: z
    .array(
      z
        .number({ error: 'Введите сумму' })
        .int('Сумма — целое число динаров')
        // Made when shown: formatting builds an Intl object, which start-up need not pay for.
        .min(TELEGRAM_RSD.min, {
          error: () =>
            `Сумма сертификата — от ${formatMoney(TELEGRAM_RSD.min, 'ru')}: меньше Telegram не принимает к оплате`,
        })
        .max(1_000_000, 'Сумма слишком большая'),
    )
    .min(1, 'Укажите хотя бы одну сумму сертификата')
    .max(8, 'Не больше 8 сумм сертификатов')
    .refine((list) => new Set(list).size === list.length, 'Суммы сертификатов не должны повторяться'),
});
export type BusinessSettings = z.infer<typeof BusinessSettings>;

/** Whether the studio's Telegram account has the bot connected (Telegram Business), as the settings show it. */
export const TelegramBusinessStatus = z.object({
  /** A connection is enabled. */
  connected: z.boolean(),
  /** It lets the bot answer in the account's chats. */
  can_reply: z.boolean(),
  /** When Telegram last told of a change of it; null: never connected. */
  changed_at: z.string().nullable(),
  /** Whose account it is: the staff member linked to it (name, else email); null: never connected. */
  account: z.string().nullable(),
});
export type TelegramBusinessStatus = z.infer<typeof TelegramBusinessStatus>;

/** PUT takes any subset of the fields; the rest keep their values. */
export const BusinessSettingsUpdate = BusinessSettings.partial();
export type BusinessSettingsUpdate = z.infer<typeof BusinessSettingsUpdate>;

export const DEFAULT_BUSINESS_SETTINGS: BusinessSettings = {
  reminder_hours: [24, 3],
  change_deadline_hours: 0,
  contact: '',
  privacy_text: DEFAULT_PRIVACY_TEXT,
  retention_days: 365,
  allergy_retention_days: 30,
  prepayment: 'none',
  deposit_percent: 30,
  payment_hold_minutes: 30,
  refund_to: 'credit',
  bank_account: '',
  bank_recipient: '',
  business_auto_reply: true,
  business_reply_hours: 12,
  min_people_decision_hours: 48,
  min_people_action: 'ask',
  min_people_grace_hours: 12,
  min_people_default: 'cancel',
  certificate_amounts: [...DEFAULT_CERTIFICATE_AMOUNTS],
};
