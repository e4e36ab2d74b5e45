// Stateful checks at ingest, per pair: the coin is one we follow, a trade id is new, and venue
// time does not run backwards (per stream: trades, book and ctx each keep their own clock).
import type { MarketEvent } from '../../core/messages.js';
import type { TradeFields } from './feed-types.js';
import type { DropReason } from './home/ws-frames.js';
import { RecentTradeIds, numericTradeId } from './recent-trade-ids.js';

/** One followed pair's state; a feed on the fast path keeps it per symbol (see pair()). */
export interface GuardPair {
  readonly ids: RecentTradeIds;
  tradeMs: number;
  bookMs: number;
  ctxMs: number;
}

export class IngestGuard {
  private readonly pairs = new Map<string, GuardPair>();

  /** tradeIdsMax: trade ids remembered per pair (the venue replays ~30 on resubscribe). */
  constructor(private readonly tradeIdsMax = 4_096) {
    if (!(tradeIdsMax >= 1)) throw new RangeError(`tradeIdsMax was ${tradeIdsMax}`);
  }

  /** Follows exactly these symbols; the state of the others is forgotten. */
  setSymbols(symbols: Iterable<string>): void {
    const keep = new Set(symbols);
    for (const s of this.pairs.keys()) if (!keep.has(s)) this.pairs.delete(s);
    for (const s of keep) {
      if (!this.pairs.has(s)) {
        this.pairs.set(s, { ids: new RecentTradeIds(this.tradeIdsMax), tradeMs: 0, bookMs: 0,
          ctxMs: 0 });
      }
    }
  }

  has(symbol: string): boolean {
    return this.pairs.has(symbol);
  }

  /** The state of a followed symbol, valid until the next setSymbols; null when not followed. */
  pair(symbol: string): GuardPair | null {
    return this.pairs.get(symbol) ?? null;
  }

  /** null when the event may pass (and its id and time are recorded), else the reason. */
  check(event: MarketEvent): DropReason | null {
    if (!('symbol' in event)) return null;
    const pair = this.pairs.get(event.symbol);
    if (!pair) return 'unknown_coin';
    switch (event.type) {
      case 'trade': {
        const id = numericTradeId(event.tradeId);
        return checkTrade(pair, event.tsMs, id, id === id ? null : event.tradeId);
      }
      case 'book':
        return checkBookTime(pair, event.tsMs);
      case 'ctx':
        if (event.tsMs < pair.ctxMs) return 'out_of_order';
        pair.ctxMs = event.tsMs;
        return null;
      default:
        return null;
    }
  }
}

/** check() for a trade handed as fields, on the pair's state from IngestGuard.pair(). */
export function checkTradeFields(pair: GuardPair, t: TradeFields): DropReason | null {
  return checkTrade(pair, t.tsMs, t.tradeId, t.tradeIdText);
}

/** check() for a book handed as fields: its time against the pair's newest book. */
export function checkBookTime(pair: GuardPair, tsMs: number): DropReason | null {
  if (tsMs < pair.bookMs) return 'out_of_order';
  pair.bookMs = tsMs;
  return null;
}

function checkTrade(pair: GuardPair, tsMs: number, id: number, text: string | null):
  DropReason | null {
  // A replayed trade is a duplicate first (it is also older than the newest).
  if (pair.ids.has(id, text)) return 'duplicate_trade';
  if (tsMs < pair.tradeMs) return 'out_of_order';
  pair.ids.add(id, text);
  pair.tradeMs = tsMs;
  return null;
}
