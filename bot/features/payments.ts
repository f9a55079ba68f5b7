import { Composer } from 'grammy';
import type { Message } from 'grammy/types';
import { preCheckoutRefusal, recordTelegramPayment, type PaymentReport } from '../../core/payments/telegram';
import { sayRefusal } from '../../contract/texts/refusal';
import type { BotContext, BotDeps } from '../context';

/**
 * Telegram payments. The last check before charging is answered here, at once (Telegram waits 10 s
 * and the outbox could be minutes late): yes only while the booking still wants exactly this amount.
 * A payment made is recorded once per charge id; the customer and staff hear of it from the outbox.
 */
export function paymentsFeature({ database, log }: BotDeps) {
  const composer = new Composer<BotContext>();

  composer.on('pre_checkout_query', async (ctx) => {
    const q = ctx.preCheckoutQuery;
    let refusal: string | null = null;
    try {
      const code = await preCheckoutRefusal(database, {
        from_id: q.from.id,
        currency: q.currency,
        total_amount: q.total_amount,
        invoice_payload: q.invoice_payload,
      });
      if (code !== null) refusal = sayRefusal(ctx.language, { code });
    } catch (err) {
      log.error({ err }, 'payments: pre-checkout check failed');
      refusal = ctx.t.money.checkFailed;
    }
    if (refusal === null) await ctx.answerPreCheckoutQuery(true);
    else await ctx.answerPreCheckoutQuery(false, { error_message: refusal });
  });

  composer.on('message:successful_payment', async (ctx) => {
    await recordTelegramPayment(database, paymentReportOf(ctx.message)!);
  });

  return composer;
}

/** A successful_payment message as the ledger takes it; null when the message is not one. */
export function paymentReportOf(m: Message | undefined): PaymentReport | null {
  const p = m?.successful_payment;
  if (!p || !m.from) return null;
  return {
    from_id: m.from.id,
    currency: p.currency,
    total_amount: p.total_amount,
    invoice_payload: p.invoice_payload,
    telegram_payment_charge_id: p.telegram_payment_charge_id,
    provider_payment_charge_id: p.provider_payment_charge_id,
    payer_name: payerName(m.from),
  };
}

/** How staff read a payer: their Telegram name and @username. */
const payerName = (u: { first_name: string; last_name?: string; username?: string }) =>
  [u.first_name, u.last_name, u.username && `@${u.username}`].filter(Boolean).join(' ');
