import { UNRECONCILED_KIND_LABELS } from '../contract/unreconciled';
import type { Notification } from '../core/notify/notifications';
import { inlineKeyboard, urlButton } from './keyboards/webapp';
import type { OutgoingMessage } from './outgoing-message';
import { texts } from './texts';

/** Staff's alert about money to look at, with the cash desk's button (where the «Несверенные деньги» card is). */
export function staffMoneyMessage(
  n: Extract<Notification, { kind: 'staff.money' }>,
  w: { publicUrl: string },
): OutgoingMessage {
  const S = texts.staff.money;
  const p = n.payload;
  const payer = p.payer_name || S.unknownPayer;
  const text =
    p.event === 'no_booking'
      ? S.noBooking(p.amount, payer, p.record_id)
      : p.event === 'no_certificate'
        ? S.noCertificate(p.amount, payer)
        : p.event === 'not_recorded'
          ? S.notRecorded(p.amount, payer, p.record_id, p.charge_id ?? '—')
          : S.unreconciled(p.problem ? UNRECONCILED_KIND_LABELS[p.problem] : '—', p.amount, p.record_id);
  return { text, reply_markup: inlineKeyboard([[urlButton(w.publicUrl, S.openCash, '/cash')]]) };
}
