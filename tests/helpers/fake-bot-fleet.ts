import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { botApiCallError, makeBotToken, TOO_MANY, type ApiError, type FloodLimits } from './fake-telegram';

/*
 * A lean fake Bot API for many bots at once (a platform's studios), for benchmarks: each token is a bot
 * of its own with Telegram's flood limits counted per bot (30 messages a second per bot, about one a
 * second per private chat of that bot, 20 a minute per group), answering 429 with retry_after beyond
 * them, as Telegram does. The same rules as tests/helpers/fake-telegram.ts (its floodControl), kept
 * per token, and its check of every call's parameters (botApiCallError); but it records only what a
 * benchmark counts (bot, method, chat, time, answer), so tens of thousands of calls stay cheap to
 * count while they arrive. An unknown token answers 401 Unauthorized.
 */

export interface FleetCall {
  bot: number;
  method: string;
  chatId: number | undefined;
  /** When the fake received it (ms, Date.now()): what Telegram counts against its limits. */
  at: number;
  ok: boolean;
  errorCode?: number;
}

export interface FleetBot {
  id: number;
  username: string;
  token: string;
  /** Its calls, in the order received. */
  calls: FleetCall[];
  /** Its 429s. */
  floodErrors: number;
}

export interface FakeBotFleet {
  url: string;
  /** A new bot: its token is accepted from now on. */
  addBot(id: number, username: string): FleetBot;
  bot(id: number): FleetBot | undefined;
  bots(): FleetBot[];
  /** Calls with a token no bot has (answered 401). */
  unknownTokenCalls: number;
  /** Every 429 answered, all bots together. */
  floodErrors: number;
  /** Telegram's answer time (ms) added to every call. */
  latencyMs: number;
  /** Forgets the calls and what the limits counted (the bots stay). */
  reset(): void;
  close(): Promise<void>;
}

/** Whether a method sends something to a chat (counted against the flood limits), as in fake-telegram.ts. */
const isSend = (method: string) => /^(send|edit|copy|forward)/.test(method);

/** One bot's flood limits: fake-telegram.ts's floodControl, for one token. */
function floodControl(limits: FloodLimits) {
  const window: number[] = [];
  const privateTokens = new Map<number, { tokens: number; at: number }>();
  const groups = new Map<number, number[]>();
  return (chatId: number, now: number): ApiError | null => {
    while (window.length > 0 && now - window[0] >= 1000) window.shift();
    if (window.length >= limits.perSecond) return TOO_MANY(Math.max(1, Math.ceil((window[0] + 1000 - now) / 1000)));
    if (chatId < 0) {
      const sent = (groups.get(chatId) ?? []).filter((t) => now - t < 60_000);
      if (sent.length >= limits.groupPerMinute) return TOO_MANY(Math.ceil((sent[0] + 60_000 - now) / 1000));
      groups.set(chatId, [...sent, now]);
    } else {
      const b = privateTokens.get(chatId) ?? { tokens: limits.privateBurst, at: now };
      const tokens = Math.min(limits.privateBurst, b.tokens + (now - b.at) / 1000);
      if (tokens < 1) return TOO_MANY(1);
      privateTokens.set(chatId, { tokens: tokens - 1, at: now });
    }
    window.push(now);
    return null;
  };
}

export async function startFakeBotFleet(opts: { limits: FloodLimits; latencyMs?: number }): Promise<FakeBotFleet> {
  const byToken = new Map<string, FleetBot & { flood: ReturnType<typeof floodControl> }>();
  const byId = new Map<number, FleetBot & { flood: ReturnType<typeof floodControl> }>();
  let messageId = 1;

  const fleet: FakeBotFleet = {
    url: '',
    unknownTokenCalls: 0,
    floodErrors: 0,
    latencyMs: opts.latencyMs ?? 0,
    addBot(id, username) {
      const bot = {
        id,
        username,
        token: makeBotToken(id),
        calls: [],
        floodErrors: 0,
        flood: floodControl(opts.limits),
      };
      byToken.set(bot.token, bot);
      byId.set(id, bot);
      return bot;
    },
    bot: (id) => byId.get(id),
    bots: () => [...byId.values()],
    reset() {
      fleet.unknownTokenCalls = 0;
      fleet.floodErrors = 0;
      for (const b of byId.values()) {
        b.calls = [];
        b.floodErrors = 0;
        b.flood = floodControl(opts.limits);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const answer = (res: http.ServerResponse, status: number, json: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // Telegram counts a message against its limits when it arrives, whatever the answer's latency.
      const receivedAt = Date.now();
      const m = /^\/bot([^/]+)\/(\w+)/.exec(req.url ?? '');
      if (!m) return answer(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      const [, token, method] = m;
      const bot = byToken.get(token);
      if (!bot) {
        fleet.unknownTokenCalls++;
        return answer(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
      }
      let params: Record<string, unknown> = {};
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        if (body)
          params = (req.headers['content-type'] ?? '').includes('json')
            ? (JSON.parse(body) as Record<string, unknown>)
            : Object.fromEntries(new URLSearchParams(body));
      } catch {
        return answer(res, 400, { ok: false, error_code: 400, description: 'Bad Request: cannot parse body' });
      }
      const chatId = params.chat_id === undefined ? undefined : Number(params.chat_id);
      let error: ApiError | undefined = botApiCallError(method, params);
      if (!error && chatId !== undefined && isSend(method)) {
        error = bot.flood(chatId, receivedAt) ?? undefined;
        if (error) {
          bot.floodErrors++;
          fleet.floodErrors++;
        }
      }
      bot.calls.push({ bot: bot.id, method, chatId, at: receivedAt, ok: !error, errorCode: error?.error_code });
      const reply = () => {
        if (error) return answer(res, error.error_code, { ok: false, ...error });
        const me = { id: bot.id, is_bot: true, first_name: bot.username, username: bot.username };
        const result =
          method === 'getMe'
            ? { ...me, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false }
            : isSend(method)
              ? {
                  message_id: messageId++,
                  date: Math.floor(receivedAt / 1000),
                  chat: { id: chatId ?? 0, type: 'private', first_name: 'Анна' },
                  from: me,
                  text: params.text,
                }
              : true;
        answer(res, 200, { ok: true, result });
      };
      if (fleet.latencyMs > 0) setTimeout(reply, fleet.latencyMs);
      else reply();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fleet.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fleet;
}
