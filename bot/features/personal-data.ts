import { Composer, InputFile } from 'grammy';
import { exportPersonalData, forgetPerson, forgetPreview } from '../../core/privacy/personal-data';
import { customerActor } from '../../core/kernel/actor';
import { HTML, type BotContext, type BotDeps } from '../context';
import { confirmForgetKeyboard } from '../keyboards/personal-data';
import { onButton } from '../callback-data';
import { personalDataText } from '../messages';
import { consentToggleKeyboard } from '../receipt-messages';

/**
 * /mydata: everything stored about the user, as a message and as a JSON file (sent here, not
 * through the outbox: it answers a command and must not be stored again). /forget: asks, then
 * cancels the upcoming bookings and erases the user's personal data (core/privacy/personal-data.ts).
 */
export function personalDataFeature(deps: BotDeps) {
  const composer = new Composer<BotContext>();
  const person = (ctx: BotContext) => ({ id: ctx.from!.id, username: ctx.from!.username ?? null });

  composer.command('mydata', async (ctx) => {
    const PD = ctx.t.replies.personalData;
    const data = await exportPersonalData(deps.database.db, person(ctx));
    await ctx.reply(personalDataText(data, deps.config.businessTimezone, ctx.t), {
      ...HTML,
      // Receipts in Telegram can be switched here once the question was asked.
      ...(data.e_receipts !== undefined && { reply_markup: consentToggleKeyboard(data.e_receipts, ctx.language) }),
    });
    const file = new InputFile(Buffer.from(JSON.stringify(data, null, 2), 'utf8'), PD.fileName);
    await ctx.replyWithDocument(file, { caption: PD.fileCaption });
  });

  composer.command('forget', async (ctx) => {
    const PD = ctx.t.replies.personalData;
    const data = await exportPersonalData(deps.database.db, person(ctx));
    // The money is said before the customer agrees: what they hold and what the studio will owe them.
    const { upcoming, ...money } = await forgetPreview(deps.database.db, person(ctx));
    await ctx.reply(PD.forgetAsk(upcoming, data.staff_account?.email ?? null, money), {
      ...HTML,
      reply_markup: confirmForgetKeyboard(ctx.t),
    });
  });

  onButton(composer, 'forget', async (ctx, { yes }) => {
    const PD = ctx.t.replies.personalData;
    if (!yes) {
      await ctx.answerCallbackQuery();
      await ctx.editMessageText(PD.forgetKept, HTML);
      return;
    }
    let result;
    try {
      result = await forgetPerson(deps.database, person(ctx), customerActor(ctx.from.id));
    } catch (err) {
      // The press is answered even so (the error handler then says something went wrong).
      await ctx.answerCallbackQuery({ text: ctx.t.replies.error });
      throw err;
    }
    await ctx.answerCallbackQuery({ text: PD.forgetDoneToast });
    await ctx.editMessageText(PD.forgetDone(result.cancelled, result.owed), HTML);
  });

  return composer;
}
