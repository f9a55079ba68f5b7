import { Composer } from 'grammy';
import type { InlineKeyboardButton } from 'grammy/types';
import { startOfStudioDay } from '../../contract/format';
import { ATTENDANCE_MSG, setAttendance } from '../../core/booking/attendance';
import { DomainError, NotFound } from '../../core/kernel/errors';
import { bool } from '../../db/database';
import { getRecord, listRecordsOfSchedules } from '../../db/repositories/records';
import { moneyOfRecord } from '../../core/ledger/ledger';
import { recordDeskPayment } from '../../core/payments/desk';
import { notesOf } from '../../db/repositories/customer-notes';
import { getRecordSchedule, listSchedulesBetween } from '../../db/repositories/schedules';
import { HTML, type BotContext, type BotDeps } from '../context';
import { todayText, type TodaySession } from '../messages';
import { texts } from '../texts';
import { encodeCallbackData, onButton } from '../callback-data';
import { staffActorOf } from '../staff-actor';

const VALUE = { attended: 'ATTENDED', no_show: 'NO_SHOW' } as const;
const TODAY = texts.staff.today;

/**
 * /today for staff whose Telegram account is linked: one message per session of the day with its
 * participants and buttons to mark who came; a press updates that same message. Pressing the mark
 * a participant already has clears it.
 */
export function todayFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  const db = deps.database.db;
  const tz = deps.config.businessTimezone;

  async function loadSession(scheduleId: number): Promise<TodaySession | null> {
    const schedule = await getRecordSchedule(db, scheduleId);
    if (!schedule) return null;
    const records = await listRecordsOfSchedules(db, [scheduleId]);
    const notes = await notesOf(
      db,
      records.map((r) => r.telegram_id),
    );
    const active = records.filter((r) => r.state === 'ACTIVE');
    const money = new Map(await Promise.all(active.map(async (r) => [r.id, await moneyOfRecord(db, r.id)] as const)));
    const dueOf = (id: number) => {
      const m = money.get(id);
      return m && m.amount_due > 0 ? Math.max(0, m.balance) : null;
    };
    return {
      title: schedule.workshop.title,
      date: schedule.date,
      capacity: schedule.capacity,
      participants: active.map((r) => ({
        id: r.id,
        name: r.name,
        last_name: r.last_name,
        people_count: r.people_count,
        has_allergy: bool(r.has_allergy),
        allergy_type: r.allergy_type,
        attendance: r.attendance,
        note: r.telegram_id === null ? null : (notes.get(r.telegram_id) ?? null),
        due: dueOf(r.id),
      })),
    };
  }

  const keyboard = (s: TodaySession): InlineKeyboardButton[][] =>
    s.participants
      .map((p, i) => [
        {
          text: TODAY.attendedButton(i + 1, p.name),
          callback_data: encodeCallbackData({ kind: 'attendance', mark: 'attended', recordId: p.id }),
        },
        {
          text: TODAY.noShowButton,
          callback_data: encodeCallbackData({ kind: 'attendance', mark: 'no_show', recordId: p.id }),
        },
      ])
      .flatMap((row, i) => {
        const p = s.participants[i];
        // What is still to pay can be taken in cash at the door: the button records that balance.
        const cash = p.due
          ? [
              [
                {
                  text: TODAY.cashButton(i + 1, p.due),
                  callback_data: encodeCallbackData({ kind: 'cash', recordId: p.id }),
                },
              ],
            ]
          : [];
        return [row, ...cash];
      });

  const render = (s: TodaySession) => ({
    text: todayText(s, tz),
    other: { ...HTML, reply_markup: { inline_keyboard: keyboard(s) } },
  });

  composer.command('today', async (ctx) => {
    if (!(await staffActorOf(deps, ctx.from!.id, 'sessions.read'))) return void (await ctx.reply(TODAY.notStaff));
    // The business day: from midnight to midnight on the studio's clock.
    const [start, end] = [0, 1].map((d) => new Date(Date.parse(startOfStudioDay(new Date(), tz, d)) - 1).toISOString());
    const schedules = await listSchedulesBetween(db, start, end);
    if (schedules.length === 0) return void (await ctx.reply(TODAY.none));
    for (const { id } of schedules) {
      const session = await loadSession(id);
      if (!session) continue;
      const { text, other } = render(session);
      await ctx.reply(text, other);
    }
  });

  onButton(composer, { kind: 'attendance', notFound: TODAY.gone }, async (ctx, { mark, recordId }) => {
    const actor = await staffActorOf(deps, ctx.from.id, 'checkin');
    if (!actor) return void (await ctx.answerCallbackQuery({ text: TODAY.notStaff, show_alert: true }));
    let record;
    try {
      record = await setAttendance(deps.database, actor, recordId, VALUE[mark], { toggle: true });
    } catch (err) {
      // Every press is answered, also when it fails, so the button stops spinning; a booking that left the
      // list (gone, cancelled, queued) reads as such.
      const gone = err instanceof NotFound || (err instanceof DomainError && err.code === ATTENDANCE_MSG.notActive);
      await ctx.answerCallbackQuery({
        text: gone ? TODAY.gone : err instanceof DomainError ? err.message : texts.replies.error,
        show_alert: true,
      });
      if (err instanceof DomainError) return;
      throw err;
    }
    await ctx.answerCallbackQuery({ text: TODAY.marked(record.name, record.attendance) });
    await refresh(ctx, record.schedule_id);
  });

  onButton(composer, { kind: 'cash', notFound: TODAY.gone }, async (ctx, { recordId }) => {
    const actor = await staffActorOf(deps, ctx.from.id, 'desk.pay');
    if (!actor) return void (await ctx.answerCallbackQuery({ text: TODAY.notStaff, show_alert: true }));
    let ledger;
    try {
      ledger = await recordDeskPayment(deps.database, actor, recordId, { method: 'cash' });
    } catch (err) {
      // Paid meanwhile (two staff at the door), or gone: said on the button, which stops spinning.
      await ctx.answerCallbackQuery({
        text: err instanceof NotFound ? TODAY.gone : err instanceof DomainError ? err.message : texts.replies.error,
        show_alert: true,
      });
      if (err instanceof DomainError) return;
      throw err;
    }
    const record = await getRecord(db, recordId);
    await ctx.answerCallbackQuery({ text: TODAY.cashTaken(record?.name ?? '', ledger.payments.at(-1)?.amount ?? 0) });
    if (record) await refresh(ctx, record.schedule_id);
  });

  /** Draws the session's message again after a press. */
  async function refresh(ctx: BotContext, scheduleId: number) {
    const session = await loadSession(scheduleId);
    if (!session) return;
    const { text, other } = render(session);
    try {
      await ctx.editMessageText(text, other);
    } catch (err) {
      // Two presses of the same state render the same text: Telegram refuses an edit that changes nothing.
      if (!String(err).includes('message is not modified')) throw err;
    }
  }

  return composer;
}
