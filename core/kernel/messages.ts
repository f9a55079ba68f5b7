import type { RefusalCode } from '../../contract/texts/refusal';

/** The booking domain's refusals and not-founds, by code (their texts: contract/texts/ru/refusals.ts). */
export const MSG = {
  scheduleNotFound: 'scheduleNotFound',
  recordNotFound: 'recordNotFound',
  workshopNotFound: 'workshopNotFound',
  addressNotFound: 'addressNotFound',
  past: 'past',
  pastBooking: 'pastBooking',
  alreadyBooked: 'alreadyBooked',
  cancelled: 'cancelled',
  alreadyCancelled: 'alreadyCancelled',
  notCancelled: 'notCancelled',
  sessionCancelled: 'sessionCancelled',
  hasFreeDates: 'hasFreeDates',
} as const satisfies Record<string, RefusalCode>;
