import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, GrammyError, InputFile } from 'grammy';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram';
import { TEST_BOT_TOKEN } from '../helpers/telegram';

/*
 * The fake Bot API refuses what Telegram refuses: a call that passes every other test must also be one
 * Telegram would take. Raw HTTP for the shapes grammY's types would not even let through, grammY's Api
 * (JSON and multipart) for the rest.
 */

let fake: FakeTelegram;
let api: Api;
const CHAT = 5001;

beforeAll(async () => {
  fake = await startFakeTelegram();
  api = new Api(TEST_BOT_TOKEN, { apiRoot: fake.url });
});
afterAll(() => fake.close());

/** Posts the parameters as JSON; Telegram's answer as {status, description}. */
const call = (method: string, params: Record<string, unknown> = {}) =>
  fetch(`${fake.url}/bot${TEST_BOT_TOKEN}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  }).then(async (r) => ({ status: r.status, description: ((await r.json()) as { description?: string }).description }));

const refused = (description: string) => ({ status: 400, description: `Bad Request: ${description}` });
const OK = { status: 200, description: undefined };

describe('the fake Bot API refuses calls Telegram would refuse', () => {
  it('an unknown method is 404 Not Found, as Telegram answers it', async () => {
    expect(await call('sendMesage', { chat_id: CHAT, text: 'hi' })).toEqual({ status: 404, description: 'Not Found' });
    expect(await call('getMe')).toEqual(OK);
  });

  it('sendMessage: chat and text required, 4096 visible characters at most, a known parse mode', async () => {
    expect(await call('sendMessage', { text: 'hi' })).toEqual(refused('chat_id is empty'));
    expect(await call('sendMessage', { chat_id: CHAT })).toEqual(refused('message text is empty'));
    expect(await call('sendMessage', { chat_id: CHAT, text: '  ' })).toEqual(refused('message text is empty'));
    expect(await call('sendMessage', { chat_id: CHAT, text: 'x'.repeat(4097) })).toEqual(
      refused('message is too long'),
    );
    // Counted after entity parsing: tags and escapes are not characters a person sees.
    const html = `<b>${'&amp;'.repeat(4096)}</b>`;
    expect(await call('sendMessage', { chat_id: CHAT, text: html, parse_mode: 'HTML' })).toEqual(OK);
    expect(await call('sendMessage', { chat_id: CHAT, text: 'hi', parse_mode: 'html5' })).toEqual(
      refused('unsupported parse_mode'),
    );
    await expect(api.sendMessage(CHAT, 'привет', { parse_mode: 'HTML' })).resolves.toMatchObject({ text: 'привет' });
  });

  it('HTML: supported tags only, closed and nested properly, &, < and > escaped', async () => {
    const send = (text: string) => call('sendMessage', { chat_id: CHAT, text, parse_mode: 'HTML' });
    expect(await send('<b>bold <i>both</i></b> <a href="https://x.example/?a=1&amp;b=2">link</a>')).toEqual(OK);
    expect(
      await send('<span class="tg-spoiler">s</span> <blockquote expandable>q</blockquote> &#8212; &quot;'),
    ).toEqual(OK);
    expect((await send('line<br>next')).description).toBe(
      `Bad Request: can't parse entities: Unsupported start tag "br" at byte offset 4`,
    );
    expect((await send('<b>bold')).description).toBe(
      `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`,
    );
    expect((await send('<b><i>x</b></i>')).description).toBe(
      `Bad Request: can't parse entities: Unmatched end tag at byte offset 7, expected "</i>", found "</b>"`,
    );
    expect((await send('x</b>')).description).toMatch(/can't parse entities: Unexpected end tag/);
    expect((await send('Tom & Jerry')).description).toMatch(/can't parse entities: unescaped "&"/);
    expect((await send('1 < 2')).description).toMatch(/can't parse entities/);
    expect((await send('2 > 1')).description).toMatch(/can't parse entities: unescaped ">"/);
    // Without a parse mode the same characters are plain text.
    expect(await call('sendMessage', { chat_id: CHAT, text: 'Tom & Jerry <3' })).toEqual(OK);
  });

  it('inline keyboards: text and exactly one action, callback data of 1–64 bytes, http(s)/tg links, web apps in private chats only', async () => {
    const send = (buttons: unknown[], chat_id = CHAT) =>
      call('sendMessage', { chat_id, text: 'x', reply_markup: { inline_keyboard: [buttons] } });
    expect(
      await send([
        { text: 'A', callback_data: 'a:1' },
        { text: 'B', url: 'https://t.me/x' },
      ]),
    ).toEqual(OK);
    expect(await send([{ text: 'Open', web_app: { url: 'https://studio.example/apply' } }])).toEqual(OK);
    expect(await send([{ text: 'A', callback_data: 'я'.repeat(33) }])).toEqual(refused('BUTTON_DATA_INVALID'));
    expect(await send([{ text: 'A', callback_data: '' }])).toEqual(refused('BUTTON_DATA_INVALID'));
    expect(await send([{ text: 'A', url: 'ftp://x' }])).toEqual(refused('BUTTON_URL_INVALID'));
    expect((await send([{ text: 'A' }])).description).toMatch(/Text buttons are unallowed in the inline keyboard/);
    expect((await send([{ text: 'A', url: 'https://x.example', callback_data: 'a' }])).status).toBe(400);
    expect((await send([{ url: 'https://x.example' }])).description).toMatch(/Field "text" must be of type String/);
    expect(await send([{ text: 'Open', web_app: { url: 'https://studio.example' } }], -100123)).toEqual(
      refused('BUTTON_TYPE_INVALID'),
    );
    expect(await send([{ text: 'Open', web_app: { url: 'http://studio.example' } }])).toEqual(
      refused('BUTTON_URL_INVALID'),
    );
    expect(await call('sendMessage', { chat_id: CHAT, text: 'x', reply_markup: { remove_keyboard: true } })).toEqual(
      OK,
    );
    expect(
      (await call('sendMessage', { chat_id: CHAT, text: 'x', reply_markup: { keyboard: [[{ text: '' }]] } })).status,
    ).toBe(400);
    expect(
      (await call('editMessageText', { chat_id: CHAT, message_id: 1, text: 'x', reply_markup: { keyboard: [['a']] } }))
        .status,
    ).toBe(400);
  });

  it('captions: 1024 characters at most; a document is required', async () => {
    await expect(
      api.sendDocument(CHAT, new InputFile(Buffer.from('BEGIN:VCALENDAR'), 'a.ics'), { caption: 'ok' }),
    ).resolves.toMatchObject({ caption: 'ok' });
    const err = await api
      .sendDocument(CHAT, new InputFile(Buffer.from('x'), 'a.txt'), { caption: 'x'.repeat(1025) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GrammyError);
    expect((err as GrammyError).description).toBe('Bad Request: message caption is too long');
    expect(await call('sendDocument', { chat_id: CHAT })).toEqual(refused('there is no document in the request'));
  });

  it('answerCallbackQuery: a query id, and 200 characters of text at most', async () => {
    expect(await call('answerCallbackQuery', { callback_query_id: '77', text: 'Готово' })).toEqual(OK);
    expect(await call('answerCallbackQuery', { text: 'x' })).toEqual(refused('QUERY_ID_INVALID'));
    expect(await call('answerCallbackQuery', { callback_query_id: '77', text: 'x'.repeat(201) })).toEqual(
      refused('MESSAGE_TOO_LONG'),
    );
  });

  it('setMyCommands: lowercase names of 1–32 characters, descriptions of 1–256, two-letter languages, a known scope', async () => {
    const commands = [{ command: 'my_bookings', description: 'Мои записи' }];
    await expect(api.setMyCommands(commands, { language_code: 'en' })).resolves.toBe(true);
    expect(await call('setMyCommands', { commands: [{ command: 'MyBookings', description: 'x' }] })).toEqual(
      refused('BOT_COMMAND_INVALID'),
    );
    expect(await call('setMyCommands', { commands: [{ command: 'x'.repeat(33), description: 'x' }] })).toEqual(
      refused('BOT_COMMAND_INVALID'),
    );
    expect(await call('setMyCommands', { commands: [{ command: 'start', description: '' }] })).toEqual(
      refused('BOT_COMMAND_DESCRIPTION_INVALID'),
    );
    expect((await call('setMyCommands', { commands, language_code: 'eng' })).status).toBe(400);
    expect((await call('setMyCommands', { commands, scope: { type: 'everyone' } })).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => ({ command: `c${i}`, description: 'x' }));
    expect((await call('setMyCommands', { commands: many })).status).toBe(400);
  });

  it('setChatMenuButton and setWebhook: https, a well-formed secret, update types that exist', async () => {
    const menu = { type: 'web_app', text: 'Записаться', web_app: { url: 'https://studio.example/apply' } };
    expect(await call('setChatMenuButton', { menu_button: menu })).toEqual(OK);
    expect(
      await call('setChatMenuButton', { menu_button: { ...menu, web_app: { url: 'http://studio.example' } } }),
    ).toEqual(refused('BUTTON_URL_INVALID'));
    expect((await call('setChatMenuButton', { menu_button: { ...menu, text: '' } })).status).toBe(400);

    const hook = { url: 'https://studio.example/hook', secret_token: 'a-Z_9', allowed_updates: ['message'] };
    expect(await call('setWebhook', hook)).toEqual(OK);
    expect((await call('setWebhook', { ...hook, url: 'http://studio.example/hook' })).description).toMatch(
      /HTTPS URL must be provided/,
    );
    expect((await call('setWebhook', { ...hook, secret_token: 'not secret!' })).status).toBe(400);
    expect((await call('setWebhook', { ...hook, allowed_updates: ['messages'] })).status).toBe(400);
    expect((await call('getUpdates', { limit: 101 })).status).toBe(400);
  });
});
