import { ATTENDANCE_LABELS, RECORD_SOURCES, type AttendanceValue } from '../../contract';
import { formatPrice, plural } from '../../contract/format';
import { escapeHtml as e, fullName, handle, quoted } from '../../contract/texts/html';
import { rsd } from '../../contract/texts/ru/bot/money';
import { common } from '../../contract/texts/ru/bot/common';

const MARK = { ATTENDED: '✅', NO_SHOW: '❌' } as const;

/** What staff read: alerts about bookings, the day-before digest, the check-in of /today. */
export const staff = {
  /** A session in an alert's head. `date`: as common.dateTime writes it. */
  session: (workshop: string, date: string) => `${quoted(workshop)}, ${date}`,
  newRecord: (session: string) => `🆕 Новая запись на ${session}`,
  cancelled: (session: string) => `❌ Отмена записи на ${session}`,
  transferred: (session: string) => `🔁 Место передано: ${session}`,
  person: (p: { name: string; last_name: string | null; telegram_login: string | null }) =>
    `Имя: ${fullName(p)}${handle(p.telegram_login)}`,
  people: (n: number) => `Человек: ${n}`,
  state: (state: keyof typeof common.state, queuePosition: number | null) =>
    `Статус: ${state === 'QUEUED' ? `${common.state.QUEUED} (место ${queuePosition ?? '—'})` : common.state[state]}`,
  allergy: (p: { has_allergy: boolean; allergy_type: string | null }) =>
    `Аллергия: ${p.has_allergy ? e(p.allergy_type || 'да') : 'нет'}`,
  comment: (comment: string | null) => `Комментарий: ${comment ? e(comment) : '—'}`,
  source: (source: string | null) =>
    `Источник: ${source ? e((RECORD_SOURCES as Record<string, string>)[source] ?? source) : '—'}`,
  firstTime: (yes: boolean) => `Впервые: ${yes ? 'да' : 'нет'}`,
  cancelReason: (reason: string | null) => `Причина: ${reason ? e(reason) : '—'}`,
  giver: (name: string) => `Было: ${e(name)}`,
  receiver: (name: string, login: string | null) => `Стало: ${e(name)}${handle(login)}`,
  openSchedule: 'Открыть расписание',
  /** One alert for a whole cancelled session. `by`: the staff member, null when the minimum rule did it. */
  sessionCancelled: (session: string) => `🚫 Мастер-класс отменён: ${session}`,
  sessionCancelledBy: (by: string | null, byRule: boolean) =>
    by
      ? `Отменил(а): ${e(by)}${byRule ? ' (не набрался минимум участников)' : ''}`
      : 'Отменён автоматически: не набрался минимум участников',
  sessionHad: (bookings: number, people: number, queued: number) =>
    `Снято записей: ${bookings} (человек: ${people})${queued ? `, из очереди: ${queued}` : ''}`,
  /** The card for a session under its minimum of participants. `deadline`: as common.dateTime writes it. */
  minPeople: {
    ask: (people: number, min: number) => `⚠️ Набралось ${people} из ${min}: отменить или провести?`,
    byDefault: (action: 'cancel' | 'run', deadline: string) =>
      action === 'cancel'
        ? `Если никто не ответит до ${deadline}, мастер-класс будет отменён автоматически, участникам придёт сообщение.`
        : `Если никто не ответит до ${deadline}, мастер-класс пройдёт как запланирован.`,
    cancelButton: 'Отменить',
    runButton: 'Провести',
    /** The card once decided: what and by whom (null: nobody answered in time, or the rule). */
    decided: (status: 'cancelled' | 'kept' | 'enough', by: string | null) => {
      const what = status === 'cancelled' ? '🚫 Решено: отменить' : '✅ Решено: провести';
      return by ? `${what} — ${e(by)}` : `${what} (без ответа, по умолчанию)`;
    },
    cancelledAnswer: 'Мастер-класс отменён, участники получат сообщение',
    keptAnswer: 'Мастер-класс проводится',
    alreadyAnswer: (by: string | null) => `Уже решено${by ? `: ${by}` : ' (по умолчанию)'}`,
    notAllowed: 'Решать об отмене могут владелец и менеджеры студии, подключившие Telegram.',
  },
  /** The reasons a customer's own buttons cancel with (stored with the booking; staff read them). */
  cancelReasons: { cantCome: 'Не смогу прийти', leftQueue: 'Вышел(а) из очереди' },
  digest: {
    /** `day`: 'Сегодня', 'Завтра' or nothing. */
    head: (day: string, workshop: string) => `📋 ${day ? `${day} ` : ''}мастер-класс ${quoted(workshop)}`,
    today: 'Сегодня',
    tomorrow: 'Завтра',
    participants: (records: number, people: number, capacity: number) =>
      `👥 Участники: ${records} ${plural(records, ['запись', 'записи', 'записей'])}, всего человек: ${people} из ${capacity}`,
    nobody: 'Пока никто не записан.',
    person: (
      i: number,
      p: { name: string; last_name: string | null; telegram_login: string | null },
      people: number,
      firstTime: boolean,
    ) =>
      `${i + 1}. ${fullName(p)}${handle(p.telegram_login)}: ${[`${people} чел.`, ...(firstTime ? ['впервые'] : [])].join(', ')}`,
    allergies: (any: boolean) => (any ? '⚠️ Аллергии:' : '⚠️ Аллергии: нет'),
    comments: (any: boolean) => (any ? '💬 Комментарии:' : '💬 Комментарии: нет'),
    item: (name: string, text: string) => `• ${e(name)}: ${e(text)}`,
    queue: (n: number) => (n ? `⏳ Очередь: ${n}` : '⏳ Очередь: пусто'),
  },
  /** /today, the check-in of linked staff. */
  today: {
    notStaff:
      'Команда /today — для сотрудников студии. Подключите Telegram в админке: Настройки → Профиль → «Подключить Telegram».',
    none: 'Сегодня занятий нет.',
    /** `date`: as common.dateTime writes it. */
    head: (workshop: string, date: string, people: number, capacity: number) =>
      `<b>${e(workshop)}</b>, ${e(date)}\nУчастники: ${people} из ${capacity}`,
    empty: 'Записей нет.',
    participant: (
      i: number,
      p: {
        name: string;
        last_name: string | null;
        people_count: number;
        has_allergy: boolean;
        allergy_type: string | null;
        note?: string | null;
        /** What is still to pay (0: paid or nothing due), null when the booking costs nothing. */
        due?: number | null;
      },
      attendance: AttendanceValue | null,
    ) => {
      const allergy = p.has_allergy ? ` · ⚠️ аллергия: ${e(p.allergy_type || 'да')}` : '';
      const note = p.note ? ` · 📝 ${e(p.note)}` : '';
      const money = p.due == null ? '' : p.due > 0 ? ` · 💳 к оплате ${formatPrice(p.due)}` : ' · 💰 оплачено';
      const mark = attendance ? ` — ${MARK[attendance]} ${ATTENDANCE_LABELS[attendance].toLowerCase()}` : '';
      return `${i + 1}. ${fullName(p)}, ${p.people_count} чел.${allergy}${note}${money}${mark}`;
    },
    marked: (name: string, value: AttendanceValue | null) =>
      value ? `${name}: ${ATTENDANCE_LABELS[value].toLowerCase()}` : `${name}: отметка снята`,
    gone: 'Эта запись больше не в списке.',
    attendedButton: (n: number, name: string) => `✅ ${n}. ${name}`,
    noShowButton: '❌ Не пришёл',
    cashButton: (n: number, due: number) => `💵 ${n}. Оплачено наличными: ${formatPrice(due)}`,
    cashTaken: (name: string, amount: number) => `${name}: оплачено наличными ${formatPrice(amount)}`,
  },
  /** Payments as they arrive. */
  payment: {
    received: (session: string, amount: number, method: string) =>
      `💳 Оплата ${rsd(amount)} (${e(method)}): ${session}`,
    late: (session: string, amount: number) =>
      `⚠️ Оплата ${rsd(amount)} пришла за отменённую или уже оплаченную запись (${session}): зачислена на баланс клиента в студии.`,
  },
  /** Money staff must look at: a charge for a deleted booking, one not recorded, a sweeper's finding. */
  money: {
    noBooking: (amount: number, payer: string, recordId: number | null) =>
      `⚠️ Оплата ${rsd(amount)} через Telegram от ${e(payer)} пришла за запись №${recordId ?? '—'}, которой больше нет (мастер-класс удалён): зачислена на баланс клиента в студии.`,
    noCertificate: (amount: number, payer: string) =>
      `⚠️ Оплата ${rsd(amount)} через Telegram от ${e(payer)} пришла за подарочный сертификат, которого нет: зачислена на баланс клиента в студии.`,
    notRecorded: (amount: number, payer: string, recordId: number | null, charge: string) =>
      `🚨 Оплата ${rsd(amount)} через Telegram от ${e(payer)} за запись №${recordId ?? '—'} не записана: обработка не удалась несколько раз. Внесите её вручную (платёж ${e(charge)}).`,
    unreconciled: (problem: string, amount: number, recordId: number | null) =>
      `⚠️ Несверенные деньги: ${e(problem)} — запись №${recordId ?? '—'}, ${rsd(amount)}. Решите в разделе «Касса».`,
    unknownPayer: 'клиента',
    openCash: '💰 Касса',
  },
  /** A customer erased their data while the studio held their money: what is owed back, nobody named. */
  erasedMoney: (p: { credit: number; paid: number; owed: number }) =>
    [
      `💸 Клиент удалил свои персональные данные. К возврату: ${rsd(p.owed)}.`,
      ...(p.credit > 0 ? [`Баланс в студии: ${rsd(p.credit)}.`] : []),
      ...(p.paid > 0 ? [`Оплачено за отменённые записи: ${rsd(p.paid)}.`] : []),
      'Сумма входит в «К возврату» в «Кассе», без имени клиента: верните её, когда клиент обратится.',
    ].join('\n'),
  /** Gift certificates: a request to confirm, a late payment, what expired. */
  certificates: {
    requested: (code: string, amount: number, buyer: string) =>
      `🎁 Запрос на подарочный сертификат ${rsd(amount)} от ${e(buyer)} (${code}). Когда оплата поступит, подтвердите его в разделе «Сертификаты».`,
    late: (code: string, amount: number) =>
      `⚠️ Оплата ${rsd(amount)} через Telegram пришла за сертификат ${code}, который уже не ждал оплаты: верните её покупателю.`,
    expired: (code: string, amount: number) =>
      `⌛ Срок сертификата ${code} истёк: неиспользованный остаток ${rsd(amount)} списан.`,
    expiredPlaces: (code: string, n: number) =>
      `⌛ Срок сертификата ${code} истёк: списано неиспользованных мест — ${n}.`,
    unknownBuyer: 'клиента',
    openList: '🎁 Сертификаты',
  },
  /** The fiscal sender: the PFR needs a PIN, does not answer, answers again, or refused a receipt. */
  fiscal: {
    pinRequired: (waiting: number) =>
      `🔒 Фискальный процессор (PFR) просит PIN-код: фискальные чеки не выдаются, ждут: ${waiting}. Введите PIN в разделе «Настройки → Фискализация» или на самом устройстве. Записи и оплаты работают как обычно; чеки уйдут сами.`,
    pinRefused: (waiting: number) =>
      `🔒 PFR не принял PIN-код, заданный на сервере; повторно он не вводится, чтобы не заблокировать карту. Фискальные чеки ждут: ${waiting}. Введите верный PIN в разделе «Настройки → Фискализация».`,
    unreachable: (waiting: number) =>
      `📡 Фискальный процессор (PFR) не отвечает: фискальные чеки ждут: ${waiting}. Проверьте, что L-PFR включён и доступен по сети. Записи и оплаты работают как обычно; чеки уйдут сами, когда PFR ответит.`,
    recovered: (waiting: number) =>
      waiting > 0
        ? `✅ PFR снова отвечает: ожидавшие фискальные чеки выдаются (осталось: ${waiting}).`
        : '✅ PFR снова отвечает: ожидавшие фискальные чеки выданы.',
    refused: (id: number, refund: boolean, amount: number | null, errors: string) =>
      `⚠️ PFR отказал в фискальном чеке №${id} (${refund ? 'возврат' : 'продажа'}${amount === null ? '' : `, ${rsd(amount)}`}): ${e(errors)}. Чек не выдан: разберитесь с ним в разделе «Касса».`,
    notSent: (id: number, error: string) =>
      `⚠️ Фискальный чек №${id} не отправлен в PFR: ${e(error)}. Чеки ждут, пока это не исправлено.`,
    openCash: '💰 Касса',
    openSettings: '⚙️ Настройки',
  },
  /** The nightly money check found a break of the money invariants (`text` says which). */
  moneyCheck: (text: string) => `🧮 Сверка денег: ${e(text)}. Проверьте в разделе «Касса».`,
};
