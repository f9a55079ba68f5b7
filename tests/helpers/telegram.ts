import { signInitData, type TelegramUser } from '../../server/plugins/telegram-init-data';

/** The bot token of every test: init data is signed with it so the server's real check runs. */
export const TEST_BOT_TOKEN = '123456789:TEST-token_for-local-tests-only';

/** Init data as Telegram would send it for this user (auth_date defaults to now). */
export const initDataFor = (user: TelegramUser, authDateS?: number) => signInitData(user, TEST_BOT_TOKEN, authDateS);

/** The Authorization header of a mini-app request. */
export const tma = (user: TelegramUser, authDateS?: number) => ({
  authorization: `tma ${initDataFor(user, authDateS)}`,
});
