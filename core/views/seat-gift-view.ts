import type { SeatGiftView } from '../../contract/journey';
import type { Database } from '../../db/database';
import { queuePosition } from '../../db/repositories/records';
import { viewSeatGift } from '../journey/seat-gifts';

/** A seat given by a friend, as the mini-app shows it to whoever opened the link before accepting. */
export async function seatGiftView(database: Database, token: string): Promise<SeatGiftView> {
  const { record, schedule } = await viewSeatGift(database, token);
  return {
    schedule,
    people_count: record.people_count,
    state: record.state,
    queue_position: record.state === 'QUEUED' ? await queuePosition(database.db, record) : null,
    giver_name: record.name,
  };
}
