// A local stand-in for the home venue: WebSocket (trades, l2Book, activeAssetCtx, ping) and
// POST /info, replaying the real recordings in test/fixtures/venue. Listens on port 0. Tests can
// drop connections, make it silent, send malformed frames and duplicate trades, and make the
// history answers (candleSnapshot, fundingHistory; venue-history.ts) slow or failing.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket } from 'ws';
import { venueFixture } from '../helpers/fixtures.js';
import { candleAnswer, candleIntervals, fundingAnswer, recordedTrades, type RecordedTrade }
  from './venue-history.js';

export interface FakeVenueOptions {
  /** Wall ms between two recorded frames sent to a connection (default 2). */
  readonly frameIntervalMs?: number;
  /** Re-stamps the recording so its last frame is the venue's start (live-like times). */
  readonly shiftToNow?: boolean;
  /**
   * Stamps each frame with the venue's clock as it is sent, as a live venue's trades and books
   * are: never older than a backfill round begun before, so never in its candles. The history
   * answers still derive from the recording (shifted by `shiftToNow`).
   */
  readonly stampAtSend?: boolean;
  /**
   * The venue's clock for history answers (which candles exist yet) and for `shiftToNow`;
   * default the wall.
   */
  readonly clock?: { nowMs(): number };
  /**
   * Wall ms after a coin's activeAssetCtx subscription before its context is sent (default 0:
   * at once; Infinity: never, as a venue that lags or drops that channel).
   */
  readonly contextDelayMs?: number;
}

/** How the history answers behave: delayed, failing, for some coins only (default all). */
export interface HistoryMode {
  readonly delayMs?: number;
  /** `refused`: 422, the venue refusing the request itself (not asked again). */
  readonly fail?: 'status' | 'bad-json' | 'hang' | 'refused';
  readonly coins?: readonly string[] | ((coin: string) => boolean);
  /** Only this many of the affected requests fail; the later ones answer. */
  readonly failTimes?: number;
}

interface Client {
  readonly socket: WebSocket;
  /** channel -> coins subscribed */
  readonly subscriptions: Map<string, Set<string>>;
  cursor: number;
  timer: NodeJS.Timeout | null;
}

export interface FakeVenue {
  readonly wsUrl: string;
  readonly infoUrl: string;
  /** Recorded frames (BTC), in file order, as sent for coin BTC. */
  readonly frames: readonly string[];
  /** Every message received from clients, parsed. */
  readonly received: unknown[];
  /** Every /info request body, parsed. */
  readonly infoRequests: unknown[];
  connections(): number;
  /** Frames sent so far to the newest connection. */
  sentFrames(): number;
  /** Closes every client connection abruptly (the clients see a disconnect). */
  dropConnections(): void;
  /** While silent, nothing is sent: no frames, no pongs. */
  setSilent(silent: boolean): void;
  /** Changes how candleSnapshot and fundingHistory answer from now on. */
  setHistoryMode(mode: HistoryMode): void;
  /** activeAssetCtx frames sent so far (to every connection). */
  contextsSent(): number;
  /** Sends every subscribed coin's context now, to every connection (a late venue). */
  sendContexts(): void;
  /** Sends a raw text frame to every client. */
  sendRaw(text: string): void;
  close(): Promise<void>;
}

function loadFrames(): string[] {
  return readFileSync(venueFixture('hl_ws_btc_raw_2025-01-26.txt'), 'utf8').split('\n')
    .filter((line) => line.length > 0).map((line) => line.slice(line.indexOf(' ') + 1));
}

const channelOf = (frame: string) => frame.startsWith('{"channel":"trades"') ? 'trades' : 'l2Book';

/**
 * How far to move the wall clock so it reads 5 s into a minute now. Market time on such a clock,
 * for a venue shifted to end "now" and the feed reading it, keeps the minute of the recording's
 * last trades open for 55 s: a backfill round begun within that time leaves them live. On the
 * wall clock a round begun past that minute's end found every recorded trade in its candles, and
 * a test waiting for trades after a fill waited in vain.
 */
export function minuteOpenOffsetMs(nowMs = Date.now()): number {
  return 5_000 - (nowMs % 60_000);
}

export async function startFakeVenue(options: FakeVenueOptions = {}): Promise<FakeVenue> {
  const frameIntervalMs = options.frameIntervalMs ?? 2;
  const nowMs = () => options.clock?.nowMs() ?? Date.now();
  const frames = shifted(loadFrames(), options.shiftToNow === true ? nowMs() : null);
  const history = { trades: recordedTrades(frames), mode: {} as HistoryMode, failed: 0,
    minuteVolume: (coin: string) => minuteVolumeOf(coin), nowMs };
  const clients = new Set<Client>();
  const received: unknown[] = [];
  const infoRequests: unknown[] = [];
  let silent = false;
  let newest: Client | null = null;
  const contextDelayMs = options.contextDelayMs ?? 0;
  const contextTimers = new Set<NodeJS.Timeout>();
  let contextsSent = 0;

  const server: Server = createServer((req, res) =>
    handleInfo(req, res, infoRequests, history));
  const wss = new WebSocketServer({ server });
  const send = (client: Client, text: string) => {
    if (!silent && client.socket.readyState === WebSocket.OPEN) client.socket.send(text);
  };
  const sendContext = (client: Client, coin: string) => {
    contextsSent++;
    send(client, ctxFrame(coin));
  };
  /** A subscription's first context, as the venue's delay says. */
  const scheduleContext = (client: Client, coin: string) => {
    if (contextDelayMs === 0) return sendContext(client, coin);
    if (contextDelayMs === Infinity) return;
    const timer = setTimeout(() => {
      contextTimers.delete(timer);
      sendContext(client, coin);
    }, contextDelayMs);
    contextTimers.add(timer);
  };
  const play = (client: Client) => {
    if (client.timer) return;
    client.timer = setInterval(() => {
      if (silent) return;
      if (client.cursor >= frames.length) return clearInterval(client.timer!);
      const recorded = frames[client.cursor++];
      const frame = options.stampAtSend === true
        ? restamped(recorded, () => nowMs()) : recorded;
      for (const coin of client.subscriptions.get(channelOf(frame)) ?? []) {
        send(client, coin === 'BTC' ? frame : frame.replaceAll('"coin":"BTC"', `"coin":"${coin}"`));
      }
    }, frameIntervalMs);
  };
  wss.on('connection', (socket) => {
    const client: Client = { socket, subscriptions: new Map(), cursor: 0, timer: null };
    clients.add(client);
    newest = client;
    socket.on('close', () => {
      if (client.timer) clearInterval(client.timer);
      clients.delete(client);
    });
    socket.on('message', (data) => {
      let msg: { method?: string; subscription?: { type: string; coin: string } };
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return send(client, '{"channel":"error","data":"Invalid JSON"}');
      }
      received.push(msg);
      if (msg.method === 'ping') return send(client, '{"channel":"pong"}');
      const sub = msg.subscription;
      if (!sub || (msg.method !== 'subscribe' && msg.method !== 'unsubscribe')) return;
      const coins = client.subscriptions.get(sub.type) ?? new Set<string>();
      client.subscriptions.set(sub.type, coins);
      if (msg.method === 'unsubscribe') coins.delete(sub.coin);
      else coins.add(sub.coin);
      send(client, JSON.stringify({ channel: 'subscriptionResponse', data: msg }));
      if (msg.method === 'subscribe' && sub.type === 'activeAssetCtx') {
        scheduleContext(client, sub.coin);
      }
      if (msg.method === 'subscribe') play(client);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    wsUrl: `ws://127.0.0.1:${port}/ws`, infoUrl: `http://127.0.0.1:${port}/info`, frames,
    received, infoRequests,
    connections: () => clients.size,
    sentFrames: () => newest?.cursor ?? 0,
    dropConnections: () => { for (const c of clients) c.socket.terminate(); },
    setSilent: (value) => { silent = value; },
    setHistoryMode: (mode) => {
      history.mode = mode;
      history.failed = 0;
    },
    contextsSent: () => contextsSent,
    sendContexts: () => {
      for (const c of clients) {
        for (const coin of c.subscriptions.get('activeAssetCtx') ?? []) sendContext(c, coin);
      }
    },
    sendRaw: (text) => { for (const c of clients) send(c, text); },
    async close() {
      for (const timer of contextTimers) clearTimeout(timer);
      for (const c of clients) {
        if (c.timer) clearInterval(c.timer);
        c.socket.terminate();
      }
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let recordedCtxs: Map<string, unknown> | null = null;

/** Every recorded market's context (main dex and xyz), by coin. */
function contexts(): Map<string, unknown> {
  if (recordedCtxs) return recordedCtxs;
  recordedCtxs = new Map();
  for (const file of ['hl_metaAndAssetCtxs_main_2026-02-06.json',
    'hl_metaAndAssetCtxs_xyz_2026-02-06.json']) {
    const [meta, ctxs] = JSON.parse(readData(file)) as [{ universe: { name: string }[] },
      unknown[]];
    meta.universe.forEach((u, i) => recordedCtxs!.set(u.name, ctxs[i]));
  }
  return recordedCtxs;
}

/**
 * An activeAssetCtx frame for a coin, taken from its recorded context (main dex or xyz; a coin
 * not recorded gets BTC's).
 */
function ctxFrame(coin: string): string {
  const ctx = contexts().get(coin) ?? contexts().get('BTC');
  return JSON.stringify({ channel: 'activeAssetCtx', data: { coin, ctx } });
}

/** A frame's venue times: every "time" field (trades, books). */
const timeField = /"time":(\d+)/g;

/** `frame` with each "time" field set to `time` of its old value. */
function restamped(frame: string, time: (ms: number) => number): string {
  return frame.replace(timeField, (_, ms: string) => `"time":${time(Number(ms))}`);
}

/**
 * The recording re-stamped to end at `endMs` (every "time" field moves by the same amount), or
 * as recorded when null.
 */
function shifted(frames: string[], endMs: number | null): string[] {
  if (endMs === null) return frames;
  let lastMs = 0;
  for (const f of frames) for (const m of f.matchAll(timeField)) {
    lastMs = Math.max(lastMs, Number(m[1]));
  }
  const offsetMs = endMs - lastMs;
  return frames.map((f) => restamped(f, (ms) => ms + offsetMs));
}

const INFO_FILES: Record<string, string> = {
  perpDexs: 'hl_perpDexs_2025-12-13.json',
  clearinghouseState: 'hl_clearinghouseState_2023-03-27.json',
};

interface HistoryBody {
  type?: string; coin?: string; startTime?: number; endTime?: number;
  req?: { coin?: string; interval?: string; startTime?: number; endTime?: number };
}

/** candleSnapshot and fundingHistory: derived answers, or the failure the test set. */
function historyReply(body: HistoryBody, history: History,
  reply: (status: number, text: string) => void): void {
  const coin = body.type === 'candleSnapshot' ? body.req?.coin : body.coin;
  const mode = history.mode;
  let affected = mode.coins === undefined || (coin !== undefined &&
    (typeof mode.coins === 'function' ? mode.coins(coin) : mode.coins.includes(coin)));
  if (affected && mode.failTimes !== undefined) {
    affected = history.failed++ < mode.failTimes;
  }
  const answer = () => {
    if (affected && mode.fail === 'hang') return;
    if (affected && mode.fail === 'status') return reply(503, '"service unavailable"');
    if (affected && mode.fail === 'refused') return reply(422, '"Failed to deserialize"');
    if (affected && mode.fail === 'bad-json') return reply(200, '[{"t":17,"o":');
    const nowMs = history.nowMs();
    if (body.type === 'candleSnapshot') {
      const r = body.req ?? {};
      if (typeof r.coin !== 'string' || typeof r.interval !== 'string' ||
        candleIntervals[r.interval] === undefined || typeof r.startTime !== 'number' ||
        typeof r.endTime !== 'number') {
        return reply(422, '"Failed to deserialize the JSON body into the target type"');
      }
      return reply(200, JSON.stringify(candleAnswer(r.coin, r.startTime, r.endTime, nowMs,
        history.trades, history.minuteVolume(r.coin), r.interval)));
    }
    if (typeof body.coin !== 'string' || typeof body.startTime !== 'number') {
      return reply(422, '"Failed to deserialize the JSON body into the target type"');
    }
    reply(200, JSON.stringify(fundingAnswer(body.coin, body.startTime,
      body.endTime ?? nowMs, nowMs)));
  };
  if (affected && (mode.delayMs ?? 0) > 0) setTimeout(answer, mode.delayMs);
  else answer();
}

interface History {
  readonly trades: readonly RecordedTrade[];
  mode: HistoryMode;
  /** Affected requests failed since the mode was set (for failTimes). */
  failed: number;
  minuteVolume(coin: string): number;
  nowMs(): number;
}

/** The coin's recorded 24h volume in base units per minute (0 when not listed). */
function minuteVolumeOf(coin: string): number {
  const ctx = contexts().get(coin) as { dayNtlVlm: string; markPx: string } | undefined;
  return ctx ? Number(ctx.dayNtlVlm) / Number(ctx.markPx) / 1_440 : 0;
}

function handleInfo(req: IncomingMessage, res: ServerResponse, log: unknown[],
  history: History): void {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => { text += chunk; });
  req.on('end', () => {
    const reply = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    };
    if (req.method !== 'POST' || req.url !== '/info') return reply(404, '"not found"');
    let body: { type?: string; dex?: string };
    try {
      body = JSON.parse(text);
    } catch {
      return reply(400, '"Failed to deserialize the JSON body"');
    }
    log.push(body);
    if (body.type === 'metaAndAssetCtxs') {
      const dex = body.dex ?? '';
      if (dex === '') return reply(200, readData('hl_metaAndAssetCtxs_main_2026-02-06.json'));
      if (dex === 'xyz') return reply(200, readData('hl_metaAndAssetCtxs_xyz_2026-02-06.json'));
      return reply(200, '[{"universe":[]},[]]');
    }
    if (body.type === 'predictedFundings') return reply(200, predictedFundings());
    if (body.type === 'candleSnapshot' || body.type === 'fundingHistory') {
      return historyReply(body, history, reply);
    }
    const file = body.type ? INFO_FILES[body.type] : undefined;
    if (file) return reply(200, readData(file));
    reply(422, '"Failed to deserialize the JSON body into the target type"');
  });
}

function readData(file: string): string {
  return readFileSync(venueFixture(file), 'utf8');
}

// The recordings hold no predictedFundings answer; this one has the venue's documented shape.
function predictedFundings(): string {
  const next = 1_770_386_400_000;
  return JSON.stringify([
    ['BTC', [['BinPerp', { fundingRate: '0.0001', nextFundingTime: next, fundingIntervalHours: 8 }],
      ['HlPerp', { fundingRate: '0.0000125', nextFundingTime: next, fundingIntervalHours: 1 }],
      ['BybitPerp', { fundingRate: '0.00005', nextFundingTime: next, fundingIntervalHours: 4 }]]],
    ['ETH', [['HlPerp', { fundingRate: '-0.00000368', nextFundingTime: next,
      fundingIntervalHours: 1 }], ['BinPerp', null]]],
  ]);
}
