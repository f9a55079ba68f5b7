import type { ScheduleListItem, SchedulePublic } from '../../contract';

/*
 * A session as the staff lists (Расписание, История) send it: what its card shows. A page of History is twenty
 * sessions with all their bookings, so each booking carries only what its row shows and acts on; the rest is
 * read when the booking or the session is opened.
 */

type StaffBooking = SchedulePublic['records'][number];

const listBooking = (r: StaffBooking): ScheduleListItem['records'][number] => ({
  id: r.id,
  state: r.state,
  name: r.name,
  last_name: r.last_name,
  people_count: r.people_count,
  telegram_login: r.telegram_login,
  telegram_id: r.telegram_id,
  comment: r.comment,
  has_allergy: r.has_allergy,
  allergy_type: r.allergy_type,
  cancel_reason: r.cancel_reason,
  attendance: r.attendance,
  confirmed_at: r.confirmed_at,
  rating: r.rating,
  earlier_no_shows: r.earlier_no_shows,
  customer_note: r.customer_note,
  payment: r.payment && { price: r.payment.price, status: r.payment.status },
  allowed: r.allowed && { checkin: r.allowed.checkin, pay: r.allowed.pay },
});

/** `s` (with what the reader may do with each booking) as a staff list's session. */
export function scheduleListItem(s: SchedulePublic): ScheduleListItem {
  const { workshop: w, records, ...session } = s;
  return {
    ...session,
    workshop: {
      id: w.id,
      title: w.title,
      price: w.price,
      duration_minutes: w.duration_minutes,
      min_people: w.min_people,
    },
    records: records.map(listBooking),
  };
}
