import { Composer } from 'grammy';
import { preCheckoutRefusal, recordTelegramPayment } from '../../core/payments/telegram';
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
    const p = ctx.message.successful_payment;
    await recordTelegramPayment(database, {
      from_id: ctx.from.id,
      currency: p.currency,
      total_amount: p.total_amount,
      invoice_payload: p.invoice_payload,
      telegram_payment_charge_id: p.telegram_payment_charge_id,
      provider_payment_charge_id: p.provider_payment_charge_id,
    });
  });

  return composer;
}
