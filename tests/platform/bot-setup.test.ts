import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALLOWED_UPDATES } from '../../bot/runtime';
import { texts, textsFor } from '../../bot/texts';
import { LANGUAGES } from '../../contract/language';
import {
  TelegramCallError,
  removeStudioBot,
  setUpStudioBot,
  studioDescription,
  studioShortDescription,
  type StudioBotSetup,
} from '../../platform/bot-setup';
import { startFakeTelegram, type FakeBotHandle, type FakeTelegram } from '../helpers/fake-telegram';

/* A studio's bot set up by the platform: the calls, in order, against the fake Bot API (which refuses what Telegram refuses). */

let fake: FakeTelegram;
let studioBot: FakeBotHandle;
let setup: StudioBotSetup;

beforeAll(async () => {
  fake = await startFakeTelegram();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  studioBot = fake.addBot({ id: 7_200_001, username: 'masterskaya_anny_bot' });
  setup = {
    apiRoot: fake.url,
    token: studioBot.token,
    webhookUrl: 'https://platform.example/telegram/studio/masterskaya-anny',
    webhookSecret: 'secret_of-the-studio-bot',
    publicUrl: 'https://masterskaya-anny.platform.example',
    studioName: 'Мастерская Анны',
    allowedUpdates: ALLOWED_UPDATES,
  };
});

const callsOfStudioBot = () => fake.callsOf(studioBot.token);

describe('setUpStudioBot', () => {
  it('webhook, commands (each language), menu button, descriptions: in this order, each taken by Telegram', async () => {
    await setUpStudioBot(setup);
    const calls = callsOfStudioBot();
    expect(calls.map((c) => c.method)).toEqual([
      'setWebhook',
      ...LANGUAGES.map(() => 'setMyCommands'),
      'setChatMenuButton',
      'setMyDescription',
      'setMyShortDescription',
    ]);
    expect(calls.every((c) => c.ok)).toBe(true);
    const [webhook, ...rest] = calls;
    expect(webhook.params).toEqual({
      url: setup.webhookUrl,
      secret_token: setup.webhookSecret,
      allowed_updates: [...ALLOWED_UPDATES],
      drop_pending_updates: false,
    });
    // The studio bot's own command lists, as bot/runtime.ts sets them: Russian for everyone, then each language.
    const commands = rest.filter((c) => c.method === 'setMyCommands').map((c) => c.params);
    expect(commands[0]).toEqual({ commands: texts.replies.commands });
    expect(commands.slice(1)).toEqual(
      LANGUAGES.filter((l) => l !== 'ru').map((l) => ({ commands: textsFor(l).replies.commands, language_code: l })),
    );
    const byMethod = (m: string) => calls.find((c) => c.method === m)!.params;
    expect(byMethod('setChatMenuButton')).toEqual({
      menu_button: { type: 'web_app', text: 'Записаться', web_app: { url: `${setup.publicUrl}/apply` } },
    });
    expect(byMethod('setMyDescription')).toEqual({ description: studioDescription('Мастерская Анны') });
    expect(byMethod('setMyDescription').description).toContain('«Мастерская Анны»');
    expect(byMethod('setMyShortDescription')).toEqual({
      short_description: 'Мастерская Анны: запись на мастер-классы',
    });
  });

  it('without https (a development server) there is no menu button: Telegram opens web apps over https only', async () => {
    await setUpStudioBot({ ...setup, publicUrl: 'http://localhost:8000' });
    expect(callsOfStudioBot().map((c) => c.method)).not.toContain('setChatMenuButton');
    expect(callsOfStudioBot().every((c) => c.ok)).toBe(true);
  });

  it('a long studio name is cut to Telegram’s limits (512 and 120 characters)', async () => {
    const name = 'Очень длинное название студии '.repeat(30);
    expect([...studioDescription(name)].length).toBeLessThanOrEqual(512);
    expect([...studioShortDescription(name)].length).toBeLessThanOrEqual(120);
    await setUpStudioBot({ ...setup, studioName: name });
    expect(callsOfStudioBot().every((c) => c.ok)).toBe(true);
  });

  it('a refusal throws with Telegram’s description, and stops there', async () => {
    const refused = setUpStudioBot({ ...setup, webhookUrl: 'http://platform.example/hook' });
    await expect(refused).rejects.toThrow('bad webhook: An HTTPS URL must be provided for webhook');
    await expect(refused).rejects.toBeInstanceOf(TelegramCallError);
    expect(callsOfStudioBot().map((c) => c.method)).toEqual(['setWebhook']);
  });

  it('a revoked token: 401 Unauthorized, and the token is not in the error', async () => {
    const old = studioBot.token;
    fake.rotateToken(7_200_001);
    const error = await setUpStudioBot({ ...setup, token: old }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TelegramCallError);
    expect((error as TelegramCallError).errorCode).toBe(401);
    expect((error as Error).message).toBe('Telegram setWebhook: Unauthorized');
    expect((error as Error).message).not.toContain(old);
  });
});

describe('removeStudioBot', () => {
  it('deletes the webhook', async () => {
    await removeStudioBot({ apiRoot: fake.url, token: studioBot.token });
    expect(callsOfStudioBot().map((c) => [c.method, c.ok, c.params])).toEqual([
      ['deleteWebhook', true, { drop_pending_updates: false }],
    ]);
  });
});
