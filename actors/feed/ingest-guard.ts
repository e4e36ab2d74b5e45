// Stateful checks at ingest, per pair: the coin is one we follow, a trade id is new, and venue
// time does not run backwards (per stream: trades, book and ctx each keep their own clock).
import type { MarketEvent } from '../messages.js';
import type { DropReason } from './home/ws-frames.js';

/** Recent trade ids of one pair: a ring plus a set; when full the oldest id is forgotten. */
class RecentIds {
  private readonly ring: string[];
  private readonly seen = new Set<string>();
  private next = 0;
  constructor(private readonly capacity: number) {
    this.ring = new Array<string>(capacity);
  }
  has(id: string): boolean {
    return this.seen.has(id);
  }
  add(id: string): void {
    const evicted = this.ring[this.next];
    if (evicted !== undefined) this.seen.delete(evicted);
    this.ring[this.next] = id;
    this.next = (this.next + 1) % this.capacity;
    this.seen.add(id);
  }
}

interface PairState {
  readonly ids: RecentIds;
  tradeMs: number;
  bookMs: number;
  ctxMs: number;
}

export class IngestGuard {
  private readonly pairs = new Map<string, PairState>();

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
        this.pairs.set(s, { ids: new RecentIds(this.tradeIdsMax), tradeMs: 0, bookMs: 0,
          ctxMs: 0 });
      }
    }
  }

  has(symbol: string): boolean {
    return this.pairs.has(symbol);
  }

  /** null when the event may pass (and its id and time are recorded), else the reason. */
  check(event: MarketEvent): DropReason | null {
    if (!('symbol' in event)) return null;
    const pair = this.pairs.get(event.symbol);
    if (!pair) return 'unknown_coin';
    switch (event.type) {
      case 'trade':
        // A replayed trade is a duplicate first (it is also older than the newest).
        if (pair.ids.has(event.tradeId)) return 'duplicate_trade';
        if (event.tsMs < pair.tradeMs) return 'out_of_order';
        pair.ids.add(event.tradeId);
        pair.tradeMs = event.tsMs;
        return null;
      case 'book':
        if (event.tsMs < pair.bookMs) return 'out_of_order';
        pair.bookMs = event.tsMs;
        return null;
      case 'ctx':
        if (event.tsMs < pair.ctxMs) return 'out_of_order';
        pair.ctxMs = event.tsMs;
        return null;
      default:
        return null;
    }
  }
}
