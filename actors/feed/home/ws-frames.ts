// Pure mappers from the home venue's WebSocket frames to normalized events. Field order never
// matters; every numeric field is checked; a bad item is reported with its reason, not thrown.
import type { BookEvent, TradeEvent } from '../../../core/messages.js';
import { parseAssetCtx } from './asset-ctx.js';
import type { AssetCtxEvent } from '../../../core/messages.js';
import { isRecord, positive } from './numbers.js';

/** Why an input was dropped: the keys of FeedStats.dropped. */
export type DropReason = 'malformed' | 'bad_price' | 'bad_size' | 'bad_side' | 'bad_time' |
  'unknown_coin' | 'duplicate_trade' | 'out_of_order' | 'venue_error';

export type Frame =
  | { readonly kind: 'trades'; readonly trades: TradeEvent[];
    readonly bad: readonly { reason: DropReason; coin: unknown }[] }
  | { readonly kind: 'book'; readonly book: BookEvent }
  | { readonly kind: 'ctx'; readonly ctx: AssetCtxEvent }
  | { readonly kind: 'pong' }
  | { readonly kind: 'subscription'; readonly subscription: unknown }
  | { readonly kind: 'venue_error'; readonly message: string }
  | { readonly kind: 'other'; readonly channel: string }
  | { readonly kind: 'drop'; readonly reason: DropReason; readonly detail: string };

const drop = (reason: DropReason, detail: string): Frame => ({ kind: 'drop', reason, detail });

/** Parses one frame's text; receivedMs stamps frames that carry no venue time (ctx). */
export function parseFrame(text: string, receivedMs: number): Frame {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return drop('malformed', 'not JSON');
  }
  if (!isRecord(msg) || typeof msg.channel !== 'string') return drop('malformed', 'no channel');
  switch (msg.channel) {
    case 'trades': return parseTrades(msg.data);
    case 'l2Book': return parseBook(msg.data);
    case 'activeAssetCtx': return parseCtx(msg.data, receivedMs);
    case 'pong': return { kind: 'pong' };
    case 'subscriptionResponse': return { kind: 'subscription', subscription: msg.data };
    case 'error': return { kind: 'venue_error', message: String(msg.data).slice(0, 200) };
    default: return { kind: 'other', channel: msg.channel.slice(0, 40) };
  }
}

function parseTrades(data: unknown): Frame {
  if (!Array.isArray(data)) return drop('malformed', 'trades: data must be an array');
  const trades: TradeEvent[] = [];
  const bad: { reason: DropReason; coin: unknown }[] = [];
  for (const raw of data) {
    const t = parseTrade(raw);
    if (typeof t === 'string') bad.push({ reason: t, coin: isRecord(raw) ? raw.coin : undefined });
    else trades.push(t);
  }
  // A frame is a batch; order it by venue time (stable) so the per-pair time check is fair.
  trades.sort((a, b) => a.tsMs - b.tsMs);
  return { kind: 'trades', trades, bad };
}

function parseTrade(raw: unknown): TradeEvent | DropReason {
  if (!isRecord(raw) || typeof raw.coin !== 'string' || raw.coin.length === 0) return 'malformed';
  const price = positive(raw.px);
  if (Number.isNaN(price)) return 'bad_price';
  const size = positive(raw.sz);
  if (Number.isNaN(size)) return 'bad_size';
  // B: the buyer was the aggressor (taker bought); A: the seller was.
  const side = raw.side === 'B' ? 1 : raw.side === 'A' ? -1 : 0;
  if (side === 0) return 'bad_side';
  const tsMs = raw.time;
  if (typeof tsMs !== 'number' || !Number.isFinite(tsMs) || tsMs <= 0) return 'bad_time';
  if (typeof raw.tid !== 'number' && typeof raw.tid !== 'string') return 'malformed';
  const users = Array.isArray(raw.users) ? raw.users : [];
  return {
    type: 'trade', symbol: raw.coin, tsMs, price, size, side, tradeId: String(raw.tid),
    buyer: typeof users[0] === 'string' ? users[0] : null,
    seller: typeof users[1] === 'string' ? users[1] : null,
  };
}

function parseLevels(raw: unknown, out: number[]): DropReason | null {
  if (!Array.isArray(raw)) return 'malformed';
  for (const level of raw) {
    if (!isRecord(level)) return 'malformed';
    const px = positive(level.px);
    if (Number.isNaN(px)) return 'bad_price';
    const sz = positive(level.sz);
    if (Number.isNaN(sz)) return 'bad_size';
    out.push(px, sz);
  }
  return null;
}

function parseBook(data: unknown): Frame {
  if (!isRecord(data) || typeof data.coin !== 'string') return drop('malformed', 'l2Book: no coin');
  if (!Array.isArray(data.levels) || data.levels.length !== 2) {
    return drop('malformed', 'l2Book: levels must be [bids, asks]');
  }
  const tsMs = data.time;
  if (typeof tsMs !== 'number' || !Number.isFinite(tsMs) || tsMs <= 0) {
    return drop('bad_time', 'l2Book: time');
  }
  const bids: number[] = [];
  const asks: number[] = [];
  const why = parseLevels(data.levels[0], bids) ?? parseLevels(data.levels[1], asks);
  if (why) return drop(why, `l2Book ${data.coin}`);
  return { kind: 'book', book: { type: 'book', symbol: data.coin, tsMs, bids, asks } };
}

function parseCtx(data: unknown, receivedMs: number): Frame {
  if (!isRecord(data) || typeof data.coin !== 'string') {
    return drop('malformed', 'activeAssetCtx: no coin');
  }
  const ctx = parseAssetCtx(data.ctx);
  if (typeof ctx === 'string') return drop('malformed', `activeAssetCtx ${data.coin}: ${ctx}`);
  return { kind: 'ctx', ctx: { type: 'ctx', symbol: data.coin, tsMs: receivedMs, ...ctx } };
}
