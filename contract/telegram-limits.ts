/**
 * Telegram's limits on one payment in dinars, from https://core.telegram.org/bots/payments/currencies.json
 * (RSD: exp 2, min_amount 10391 and max_amount 103910127 para, rounded inward to whole dinars).
 * Telegram sets them to about US$1 and US$10,000 and moves them with the exchange rate: update them
 * here when its list moves. Telegram refuses an invoice outside them (CURRENCY_TOTAL_AMOUNT_INVALID).
 */
export const TELEGRAM_RSD = { min: 104, max: 1_039_101 } as const;

/**
 * What a Telegram invoice asks of a booking that should pay `payNow` now with `balance` left: a part
 * below Telegram's minimum is raised to it while the balance allows (the customer pays a little more
 * of what they owe anyway); else Telegram cannot take it and the customer pays at the studio.
 */
export function telegramCharge(
  payNow: number,
  balance: number,
): { amount: number } | { refusal: 'paymentBelowTelegramMinimum' | 'paymentAboveTelegramMaximum' } {
  if (payNow > TELEGRAM_RSD.max) return { refusal: 'paymentAboveTelegramMaximum' };
  const amount = Math.max(payNow, Math.min(TELEGRAM_RSD.min, balance));
  return amount >= TELEGRAM_RSD.min ? { amount } : { refusal: 'paymentBelowTelegramMinimum' };
}
