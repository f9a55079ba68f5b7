import { z } from './zod';
import { DateRange, PageQuery } from './paging';
import { idParam } from './common';

export const ACTOR_KINDS = ['customer', 'staff', 'system'] as const;

/** Who made a change, with a name to show: a deleted staff user reads 'удалённый пользователь'. */
export const AuditActor = z.object({
  kind: z.enum(ACTOR_KINDS),
  user_id: z.number().int().nullable(),
  telegram_id: z.number().nullable(),
  name: z.string(),
});
export type AuditActor = z.infer<typeof AuditActor>;

export const AuditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: AuditActor,
  entity: z.string(),
  entity_id: z.number().int(),
  action: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  /** What the entry is about, by name ('Анна Петрова · Паста, 5 декабря 18:00'); null when it is gone and unnamed. */
  subject: z.string().nullable(),
  /** Names of the ids in before/after, keyed 'field:id' ('schedule_id:3'): the log shows names, not ids. */
  names: z.record(z.string(), z.string()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditPage = z.object({ data: z.array(AuditEntry), count: z.number().int() });
export type AuditPage = z.infer<typeof AuditPage>;

export const AUDIT_ENTITIES = [
  'record',
  'schedule',
  'workshop',
  'address',
  'user',
  'settings',
  'business_settings',
  'promo_code',
  'fiscal_settings',
  'fiscal_receipt',
] as const;

export const AuditQuery = PageQuery.extend(DateRange.shape).extend({
  entity: z.string().max(32).optional(),
  entity_id: idParam.optional(),
});
export type AuditQuery = z.input<typeof AuditQuery>;

/** Russian names of the actions and entities, for the admin's history views. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  created: 'Создание',
  people_changed: 'Изменение количества',
  cancelled: 'Отмена',
  restored: 'Восстановление',
  promoted: 'Из очереди в участники',
  queued: 'В очередь',
  attendance: 'Посещение',
  transferred: 'Перенос',
  confirmed: 'Подтверждение',
  updated: 'Изменение',
  deleted: 'Удаление',
  erased: 'Удаление персональных данных',
  // Ledger rows, logged under the kind of the row.
  payment: 'Оплата',
  refund: 'Возврат',
  adjustment: 'Корректировка баланса',
};
/** The Russian name of each field an audit entry may show (its before and after). */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  state: 'Статус',
  people_count: 'Количество',
  cancel_reason: 'Причина отмены',
  attendance: 'Посещение',
  schedule_id: 'Занятие',
  name: 'Имя',
  date: 'Дата',
  capacity: 'Мест',
  workshop_id: 'Мастер-класс',
  address_id: 'Адрес',
  title: 'Название',
  description: 'Описание',
  price: 'Цена',
  map_link: 'Ссылка на карту',
  email: 'Email',
  full_name: 'Имя',
  is_active: 'Активен',
  is_superuser: 'Суперпользователь',
  telegram_id: 'Telegram id',
  telegram_login: 'Telegram',
  password: 'Пароль',
  notifications: 'Уведомления',
  latitude: 'Широта',
  longitude: 'Долгота',
  duration_minutes: 'Длительность, мин',
  confirmed_at: 'Подтверждение',
  rating: 'Оценка',
  reason: 'Причина',
  amount: 'Сумма',
  amount_paid: 'Оплачено',
  status: 'Оплата',
  method: 'Способ',
  note: 'Комментарий',
  role: 'Роль',
  code: 'Код',
  kind: 'Вид',
  value: 'Скидка',
  starts_at: 'Действует с',
  ends_at: 'Действует до',
  max_uses: 'Сколько раз',
  contact: 'Контакт',
  chars: 'Символов',
  last_name: 'Фамилия',
  title_en: 'Название (англ.)',
  title_sr: 'Название (серб.)',
  description_en: 'Описание (англ.)',
  description_sr: 'Описание (серб.)',
  min_people: 'Минимум участников',
  fiscal_mode: 'Фискализация',
  fiscal_pfr_url: 'Адрес PFR',
  fiscal_training: 'Учебный режим',
  fiscal_cashier: 'Кассир',
  fiscal_label_workshop: 'Метка мастер-классов',
  fiscal_label_certificate: 'Метка сертификатов',
  fiscal_label_pass: 'Метка абонементов',
  fiscal_certificate_receipts: 'Чек за сертификат',
  fiscal_close_buyer_id: 'Документ покупателя при закрытии аванса',
  invoice_number: 'Номер чека',
  buyer_id_code: 'Документ покупателя',
  pin: 'PIN PFR',
};
export const AUDIT_ENTITY_LABELS: Record<string, string> = {
  record: 'Запись',
  schedule: 'Расписание',
  workshop: 'Мастер-класс',
  address: 'Адрес',
  user: 'Пользователь',
  settings: 'Настройки',
  business_settings: 'Настройки студии',
  promo_code: 'Промокод',
  certificate: 'Сертификат',
  credit: 'Баланс клиента',
  customer_note: 'Заметка о клиенте',
  personal_data: 'Персональные данные',
  unreconciled: 'Несверенные деньги',
  bank_line: 'Строка выписки',
  owed_refund: 'Возврат после удаления данных',
  fiscal_settings: 'Фискализация',
  fiscal_receipt: 'Фискальный чек',
};
export const DELETED_USER = 'удалённый пользователь';
export const SYSTEM_ACTOR = 'Система';
