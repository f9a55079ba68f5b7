import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Update } from 'grammy/types';
import {
  CREATE_BOT_REQUEST_ID,
  ONBOARDING_ALLOWED_UPDATES,
  createOnboardingBot,
  onboardingTexts,
  type OnboardingBot,
} from '../../platform/onboarding-bot';
import type { OnboardingPort } from '../../platform/onboarding-port';
import { webhookSecretOf } from '../../platform/secrets';

/** The platform's SECRET_KEY in these tests. */
const SECRET = 'test-secret-key-that-is-long-enough-0123456789';
import {
  callbackUpdate,
  keyboardOf,
  makeBotToken,
  startFakeTelegram,
  textUpdate,
  tgUser,
  type FakeBotHandle,
  type FakeCall,
  type FakeTelegram,
} from '../helpers/fake-telegram';

/*
 * The platform's onboarding bot driven with the updates Telegram sends, against the fake Bot API
 * (which serves the platform bot, the managed bots and the pasted ones, each by its token), with an
 * in-memory studio store in place of the platform's.
 */

const quietLog = { info() {}, warn() {}, error() {} };
const PLATFORM_BOT_ID = 5_100_000_001;

/** The studio store, in memory, recording every call. */
function memoryPort() {
  const studios: {
    slug: string;
    name: string;
    ownerTelegramId: number;
    botId: number;
    botUsername: string;
    token: string;
  }[] = [];
  const calls: { method: keyof OnboardingPort; args: unknown[] }[] = [];
  let links = 0;
  const loginUrl = (slug: string) => `https://platform.example/${slug}/login?once=${++links}`;
  const port: OnboardingPort = {
    async createStudio(input) {
      calls.push({ method: 'createStudio', args: [input] });
      let studio = studios.find((s) => s.botId === input.bot.id);
      if (!studio) {
        studio = {
          slug: `studio-${studios.length + 1}`,
          name: `Студия ${input.ownerName}`,
          ownerTelegramId: input.ownerTelegramId,
          botId: input.bot.id,
          botUsername: input.bot.username,
          token: input.bot.token,
        };
        studios.push(studio);
      }
      return { slug: studio.slug, loginUrl: loginUrl(studio.slug) };
    },
    async replaceToken(botId, token) {
      calls.push({ method: 'replaceToken', args: [botId, token] });
      const studio = studios.find((s) => s.botId === botId);
      if (!studio) return false;
      studio.token = token;
      return true;
    },
    async botLost(botId, reason) {
      calls.push({ method: 'botLost', args: [botId, reason] });
    },
    async studiosOf(ownerTelegramId) {
      calls.push({ method: 'studiosOf', args: [ownerTelegramId] });
      return studios
        .filter((s) => s.ownerTelegramId === ownerTelegramId)
        .map((s) => ({
          slug: s.slug,
          name: s.name,
          botUsername: s.botUsername,
          loginUrl: loginUrl(s.slug),
          botId: s.botId,
        }));
    },
  };
  const of = (method: keyof OnboardingPort) => calls.filter((c) => c.method === method).map((c) => c.args);
  return { port, studios, calls, of };
}

let fake: FakeTelegram;
let platform: FakeBotHandle;
let store: ReturnType<typeof memoryPort>;
let onboarding: OnboardingBot;
const owner = tgUser(710_001, 'anna_cakes');

beforeAll(async () => {
  fake = await startFakeTelegram();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  platform = fake.addBot({
    id: PLATFORM_BOT_ID,
    username: 'studios_platform_bot',
    firstName: 'Студии',
    canManageBots: true,
  });
  store = memoryPort();
  onboarding = createOnboardingBot({
    token: platform.token,
    secretKey: SECRET,
    apiRoot: fake.url,
    port: store.port,
    log: quietLog,
  });
});

const handle = (update: unknown) => onboarding.handleUpdate(update as Update);
/** What the platform bot sent this chat, in order. */
const sent = (chatId: number) => fake.ok('sendMessage', chatId, platform.token);
const lastText = (chatId: number) => sent(chatId).at(-1)?.params.text;
const markupOf = (call: FakeCall | undefined) =>
  (typeof call?.params.reply_markup === 'string' ? JSON.parse(call.params.reply_markup) : call?.params.reply_markup) as
    Record<string, unknown> | undefined;
/** The URL buttons of a message, as [text, url]. */
const urlButtons = (call: FakeCall | undefined) =>
  call
    ? keyboardOf(call)
        .flat()
        .flatMap((b) => (b.url ? [[b.text, b.url]] : []))
    : [];

/** The owner taps «Создать бота студии» and confirms: Telegram creates the bot, managed by the platform bot. */
const createManagedBot = (username = 'anna_cakes_studio_bot') =>
  fake.registerManagedBot({ managerToken: platform.token, owner, username, firstName: 'Анна — студия' });

describe('/start', () => {
  it('greets the owner and shows the «Создать бота студии» button that asks Telegram for a managed bot', async () => {
    await handle(textUpdate(owner, '/start'));
    const [reply] = sent(owner.id);
    expect(reply.params.text).toContain('Здравствуйте, Анна!');
    expect(reply.params.text).toContain('@BotFather');
    const markup = markupOf(reply) as { keyboard: Record<string, unknown>[][]; resize_keyboard: boolean };
    expect(markup.keyboard[0][0]).toEqual({
      text: 'Создать бота студии',
      request_managed_bot: {
        request_id: CREATE_BOT_REQUEST_ID,
        suggested_name: 'Анна — студия',
        suggested_username: 'anna_cakes_studio_bot',
      },
    });
    expect(markup.keyboard[1][0]).toEqual({ text: 'Мои студии' });
  });

  it('suggests a username from the user id when the owner has none, always ending in "bot"', async () => {
    const nameless = tgUser(710_002);
    await handle(textUpdate(nameless, '/start'));
    const markup = markupOf(sent(nameless.id)[0]) as {
      keyboard: { request_managed_bot: { suggested_username: string } }[][];
    };
    const username = markup.keyboard[0][0].request_managed_bot.suggested_username;
    expect(username).toBe('studio710002_studio_bot');
    expect(username).toMatch(/^[A-Za-z][A-Za-z0-9_]{3,30}bot$/);
  });
});

describe('a bot created with the button (managed bot)', () => {
  it('gets its token, checks it, creates the studio and gives the owner the login button', async () => {
    const managed = createManagedBot();
    // Telegram sends both: the service message in the owner's chat, and the managed_bot update.
    await handle(managed.createdMessage());
    await handle(managed.update());

    const asked = fake.ok('getManagedBotToken', undefined, platform.token);
    expect(asked.map((c) => c.params)).toEqual([{ user_id: managed.me.id }]);
    expect(fake.ok('getMe', undefined, managed.token)).toHaveLength(1);
    expect(store.of('createStudio')).toEqual([
      [
        {
          ownerTelegramId: owner.id,
          ownerName: 'Анна',
          bot: {
            id: managed.me.id,
            username: 'anna_cakes_studio_bot',
            firstName: 'Анна — студия',
            token: managed.token,
          },
        },
      ],
    ]);
    const [created, ready] = sent(owner.id);
    // The service message answered: the bot is there, and the reply keyboard goes.
    expect(created.params.text).toBe(onboardingTexts.botCreated('anna_cakes_studio_bot'));
    expect(markupOf(created)).toEqual({ remove_keyboard: true });
    expect(ready.params.text).toContain('Студия с ботом @anna_cakes_studio_bot создана');
    expect(urlButtons(ready)).toEqual([['Открыть админку', 'https://platform.example/studio-1/login?once=1']]);
  });

  it('a copy of the update (Telegram delivers again, even at once) creates the studio once', async () => {
    const managed = createManagedBot();
    const update = managed.update();
    await Promise.all([handle(update), handle(update)]);
    await handle(update);
    expect(store.of('createStudio')).toHaveLength(1);
    // The copies do nothing at all: no token stored again, nothing more said to the owner.
    expect(store.of('replaceToken')).toHaveLength(1);
    expect(sent(owner.id)).toHaveLength(1);
    expect(urlButtons(sent(owner.id)[0])).toHaveLength(1);
  });

  it('a failure says what to do, and «Попробовать ещё раз» creates the studio', async () => {
    const managed = createManagedBot();
    fake.failNext('getManagedBotToken', { error_code: 400, description: 'Bad Request: BOT_INVALID' });
    await handle(managed.update());
    expect(store.of('createStudio')).toHaveLength(0);
    const failure = sent(owner.id).at(-1);
    expect(failure?.params.text).toContain('Не получилось подключить бота @anna_cakes_studio_bot');
    expect(failure?.params.text).toContain('@BotFather');
    const [[retry]] = keyboardOf(failure!);
    expect(retry).toEqual({ text: 'Попробовать ещё раз', callback_data: `create:${managed.me.id}` });

    await handle(callbackUpdate(owner, retry.callback_data!));
    expect(store.of('createStudio')).toHaveLength(1);
    expect(urlButtons(sent(owner.id).at(-1))).toHaveLength(1);
  });

  it('the studio store failing: the owner is told, and nothing is remembered as done', async () => {
    const managed = createManagedBot();
    const createStudio = store.port.createStudio;
    store.port.createStudio = async () => {
      throw new Error('database down');
    };
    await handle(managed.update());
    expect(lastText(owner.id)).toBe(onboardingTexts.managedFailed('anna_cakes_studio_bot'));
    store.port.createStudio = createStudio;
    // Telegram's next delivery of the update is handled for real.
    await handle(managed.update());
    expect(store.of('createStudio')).toHaveLength(1);
  });

  it('an update for a bot that has a studio (its owner replaced the token in Telegram) stores the new token', async () => {
    const managed = createManagedBot();
    await handle(managed.update());
    const first = managed.token;
    const fresh = fake.rotateToken(managed.me.id);
    expect(fresh).not.toBe(first);
    await handle(managed.update());

    expect(store.of('createStudio')).toHaveLength(1);
    expect(store.of('replaceToken').at(-1)).toEqual([managed.me.id, fresh]);
    expect(store.studios[0].token).toBe(fresh);
    expect(lastText(owner.id)).toBe(onboardingTexts.tokenSaved('anna_cakes_studio_bot'));
  });
});

describe('a token pasted from @BotFather', () => {
  it('is checked with getMe, makes the studio, and its message is deleted from the chat', async () => {
    const cakes = fake.addBot({ id: 6_100_001, username: 'cakes_bot', firstName: 'Торты' });
    const paste = textUpdate(owner, ` ${cakes.token} `);
    await handle(paste);

    expect(fake.ok('getMe', undefined, cakes.token)).toHaveLength(1);
    expect(store.of('createStudio')).toEqual([
      [
        {
          ownerTelegramId: owner.id,
          ownerName: 'Анна',
          bot: { id: 6_100_001, username: 'cakes_bot', firstName: 'Торты', token: cakes.token },
        },
      ],
    ]);
    expect(fake.ok('deleteMessage', undefined, platform.token).map((c) => c.params)).toEqual([
      { chat_id: owner.id, message_id: paste.message.message_id },
    ]);
    const reply = sent(owner.id).at(-1);
    expect(reply?.params.text).toContain('Студия с ботом @cakes_bot создана');
    expect(reply?.params.text).toContain(onboardingTexts.tokenDeleted);
    expect(urlButtons(reply)).toEqual([['Открыть админку', 'https://platform.example/studio-1/login?once=1']]);
    // The token is nowhere in what the bot said.
    expect(sent(owner.id).every((c) => !String(c.params.text).includes(cakes.token))).toBe(true);
  });

  it('an invalid token (Telegram answers 401) gets a clear Russian answer and no studio', async () => {
    const token = makeBotToken(6_100_002);
    fake.revokeToken(token);
    await handle(textUpdate(owner, token));
    expect(fake.calls.filter((c) => c.token === token).map((c) => [c.method, c.error?.error_code])).toEqual([
      ['getMe', 401],
    ]);
    expect(store.of('createStudio')).toHaveLength(0);
    expect(lastText(owner.id)).toBe(`${onboardingTexts.tokenInvalid}\n\n${onboardingTexts.tokenDeleted}`);
  });

  it('the new token of a studio bot (revoked in @BotFather) replaces the stored one, with the login button', async () => {
    const cakes = fake.addBot({ id: 6_100_003, username: 'pies_bot' });
    await handle(textUpdate(owner, cakes.token));
    const fresh = fake.rotateToken(6_100_003);
    await handle(textUpdate(owner, fresh));
    expect(store.of('createStudio')).toHaveLength(1);
    expect(store.of('replaceToken').at(-1)).toEqual([6_100_003, fresh]);
    const reply = sent(owner.id).at(-1);
    expect(reply?.params.text).toContain(onboardingTexts.tokenSaved('pies_bot'));
    expect(urlButtons(reply)).toHaveLength(1);
  });

  it('the message is still answered when it cannot be deleted (older than 48 hours)', async () => {
    const cakes = fake.addBot({ id: 6_100_004, username: 'buns_bot' });
    fake.failNext('deleteMessage', { error_code: 400, description: "Bad Request: message can't be deleted" });
    await handle(textUpdate(owner, cakes.token));
    expect(store.of('createStudio')).toHaveLength(1);
    expect(lastText(owner.id)).toContain(onboardingTexts.tokenNotDeleted);
  });
});

describe('/newtoken: the owner rotates a leaked token', () => {
  it('replaceManagedBotToken for the owner’s managed bot, the new token stored; the old one is dead', async () => {
    const managed = createManagedBot();
    await handle(managed.update());
    const old = managed.token;

    await handle(textUpdate(owner, '/newtoken'));
    expect(fake.ok('replaceManagedBotToken', undefined, platform.token).map((c) => c.params)).toEqual([
      { user_id: managed.me.id },
    ]);
    expect(managed.token).not.toBe(old);
    expect(store.of('replaceToken').at(-1)).toEqual([managed.me.id, managed.token]);
    expect(store.studios[0].token).toBe(managed.token);
    expect(lastText(owner.id)).toBe(onboardingTexts.newTokenDone('anna_cakes_studio_bot'));
    // Telegram refuses the old token from now on.
    const res = await fetch(`${fake.url}/bot${old}/getMe`, { method: 'POST' });
    expect(res.status).toBe(401);

    // The managed_bot update Telegram sends for the change is the change already stored.
    const replaced = store.of('replaceToken').length;
    await handle(managed.update());
    expect(store.of('replaceToken')).toHaveLength(replaced);
  });

  it('with several studios the owner picks the bot; a bot of another owner is refused', async () => {
    const first = createManagedBot('anna_one_bot');
    const second = createManagedBot('anna_two_bot');
    await handle(first.update());
    await handle(second.update());

    await handle(textUpdate(owner, '/newtoken'));
    const choice = sent(owner.id).at(-1)!;
    expect(choice.params.text).toBe(onboardingTexts.newTokenChoose);
    expect(keyboardOf(choice)).toEqual([
      [{ text: '@anna_one_bot', callback_data: `newtoken:${first.me.id}` }],
      [{ text: '@anna_two_bot', callback_data: `newtoken:${second.me.id}` }],
    ]);

    const stranger = tgUser(710_009);
    await handle(callbackUpdate(stranger, `newtoken:${second.me.id}`));
    expect(fake.ok('replaceManagedBotToken')).toHaveLength(0);
    expect(fake.ok('answerCallbackQuery').at(-1)?.params.text).toBe(onboardingTexts.notYourBot);

    await handle(callbackUpdate(owner, `newtoken:${second.me.id}`));
    expect(fake.ok('replaceManagedBotToken').map((c) => c.params)).toEqual([{ user_id: second.me.id }]);
    expect(store.of('replaceToken').at(-1)).toEqual([second.me.id, second.token]);
  });

  it('a bot connected with a @BotFather token: Telegram refuses, the owner is told to revoke it there', async () => {
    const cakes = fake.addBot({ id: 6_100_005, username: 'tarts_bot' });
    await handle(textUpdate(owner, cakes.token));
    await handle(textUpdate(owner, '/newtoken'));
    expect(fake.calls.filter((c) => c.method === 'replaceManagedBotToken').map((c) => c.error?.description)).toEqual([
      'Bad Request: BOT_INVALID',
    ]);
    expect(lastText(owner.id)).toBe(onboardingTexts.newTokenNotManaged('tarts_bot'));
    expect(store.studios[0].token).toBe(cakes.token);
  });
});

describe('«Мои студии», hints, the webhook', () => {
  it('/studios lists the owner’s studios with a login button each; none yet says how to start', async () => {
    await handle(textUpdate(owner, '/studios'));
    expect(lastText(owner.id)).toBe(onboardingTexts.noStudios);

    await handle(createManagedBot('anna_one_bot').update());
    await handle(createManagedBot('anna_two_bot').update());
    await handle(textUpdate(owner, 'Мои студии'));
    const list = sent(owner.id).at(-1);
    expect(list?.params.text).toContain('@anna_one_bot');
    expect(list?.params.text).toContain('@anna_two_bot');
    expect(urlButtons(list).map(([text]) => text)).toEqual(['Админка: Студия Анна', 'Админка: Студия Анна']);
  });

  it('anything else gets a short hint', async () => {
    await handle(textUpdate(owner, 'привет'));
    await handle(textUpdate(owner, '123:short'));
    expect(sent(owner.id).map((c) => c.params.text)).toEqual([onboardingTexts.hint, onboardingTexts.hint]);
    expect(store.calls).toHaveLength(0);
  });

  it('the webhook secret is derived from the token (every instance agrees) and checked timing-safe', () => {
    const again = createOnboardingBot({
      token: platform.token,
      secretKey: SECRET,
      apiRoot: fake.url,
      port: store.port,
      log: quietLog,
    });
    expect(again.webhookSecret).toBe(onboarding.webhookSecret);
    expect(onboarding.webhookSecret).toBe(webhookSecretOf(SECRET, platform.token));
    expect(onboarding.webhookSecret).toMatch(/^[A-Za-z0-9_-]{1,256}$/);
    expect(webhookSecretOf(SECRET, makeBotToken(PLATFORM_BOT_ID))).not.toBe(onboarding.webhookSecret);
    expect(webhookSecretOf('another-secret-key', platform.token)).not.toBe(onboarding.webhookSecret);
    expect(onboarding.verifySecret(onboarding.webhookSecret)).toBe(true);
    expect(onboarding.verifySecret('nope')).toBe(false);
    expect(onboarding.verifySecret(undefined)).toBe(false);
  });

  it('setUp registers the webhook with the secret and managed_bot among the updates, and the commands', async () => {
    await onboarding.setUp('https://platform.example/platform/telegram/webhook');
    const [webhook] = fake.ok('setWebhook', undefined, platform.token);
    expect(webhook.params).toEqual({
      url: 'https://platform.example/platform/telegram/webhook',
      secret_token: onboarding.webhookSecret,
      allowed_updates: [...ONBOARDING_ALLOWED_UPDATES],
      drop_pending_updates: false,
    });
    expect(ONBOARDING_ALLOWED_UPDATES).toContain('managed_bot');
    const [commands] = fake.ok('setMyCommands', undefined, platform.token);
    expect((commands.params.commands as { command: string }[]).map((c) => c.command)).toEqual([
      'start',
      'studios',
      'newtoken',
    ]);
  });
});
