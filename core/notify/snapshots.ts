import type { RecordSchedule } from '../../contract';
import { bool } from '../../db/database';
import type { RecordRow } from '../../db/repositories/records';
import type { RecordSnapshot, ScheduleSnapshot } from './notifications';

/* The snapshots a payload carries, taken in the change's transaction, and the digest's once-per-key. */

export const scheduleSnapshot = (s: RecordSchedule): ScheduleSnapshot => ({
  schedule_id: s.id,
  date: s.date,
  workshop_title: s.workshop.title,
  workshop_title_en: s.workshop.title_en ?? null,
  workshop_title_sr: s.workshop.title_sr ?? null,
  address_title: s.address.title,
  address_description: s.address.description,
  map_link: s.address.map_link,
});

export const recordSnapshot = (r: RecordRow, queuePosition: number | null): RecordSnapshot => ({
  record_id: r.id,
  state: r.state,
  telegram_id: r.telegram_id,
  name: r.name,
  last_name: r.last_name,
  people_count: r.people_count,
  telegram_login: r.telegram_login,
  comment: r.comment,
  has_allergy: bool(r.has_allergy),
  allergy_type: r.allergy_type,
  source: r.source,
  is_first_time: bool(r.is_first_time),
  cancel_reason: r.cancel_reason,
  queue_position: r.state === 'QUEUED' ? queuePosition : null,
});

export const digestDedupeKey = (scheduleId: number, userId: number) => `digest:${scheduleId}:${userId}`;
