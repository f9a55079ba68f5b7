import type { InlineKeyboardMarkup } from 'grammy/types';
import type { MinPeopleCheck } from '../db/repositories/min-people';
import type { MinPeoplePayload, SessionCancelledPayload } from '../core/notify/notifications';
import { encodeCallbackData } from './callback-data';
import { texts } from './texts';
import { urlButton, inlineKeyboard } from './keyboards/webapp';

/* Staff's messages about whole sessions (Russian): the minimum-participants card and the one alert per cancelled session. */

const { common, staff: S } = texts;

interface Where {
  publicUrl: string;
  timezone: string;
}

const openSchedule = (rc: Where) => inlineKeyboard([[urlButton(rc.publicUrl, S.openSchedule, '/schedule')]]);

/** One alert for a cancelled session: who (or the minimum rule), the reason, and what it had. */
export function sessionCancelledMessage(p: SessionCancelledPayload, rc: Where) {
  const s = p.schedule;
  return {
    text: [
      S.sessionCancelled(S.session(s.workshop_title, common.dateTime(s.date, rc.timezone))),
      '',
      S.sessionCancelledBy(p.by, p.by_rule),
      S.cancelReason(p.reason),
      S.sessionHad(p.bookings, p.people, p.queued),
    ].join('\n'),
    reply_markup: openSchedule(rc),
  };
}

/**
 * The card for a session under its minimum: «Набралось 2 из 3: отменить или провести?», the session,
 * what happens without an answer and when; with both buttons until decided, then who decided instead.
 */
export function minPeopleCard(
  p: MinPeoplePayload,
  rc: Where,
  decided?: Pick<MinPeopleCheck, 'status' | 'decided_by_name'>,
): { text: string; reply_markup?: InlineKeyboardMarkup } {
  const s = p.schedule;
  const head = [
    S.minPeople.ask(p.people, p.min_people),
    S.session(s.workshop_title, common.dateTime(s.date, rc.timezone)),
    '',
  ];
  if (decided && decided.status !== 'asked')
    return { text: [...head, S.minPeople.decided(decided.status, decided.decided_by_name)].join('\n') };
  const id = s.schedule_id;
  return {
    text: [...head, S.minPeople.byDefault(p.default_action, common.dateTime(p.decide_by, rc.timezone))].join('\n'),
    reply_markup: {
      inline_keyboard: [
        [
          {
            text: S.minPeople.cancelButton,
            callback_data: encodeCallbackData({ kind: 'min_people', action: 'cancel', scheduleId: id }),
          },
          {
            text: S.minPeople.runButton,
            callback_data: encodeCallbackData({ kind: 'min_people', action: 'run', scheduleId: id }),
          },
        ],
      ],
    },
  };
}
