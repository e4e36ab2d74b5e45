// Adapters between the two shapes of a feed's sink: a function that takes every event as an
// object (tests, record), and a shard's per-pair lanes that take trades and books as fields.
import type { BookEvent, MarketEvent, TradeEvent } from '../../core/messages.js';
import type { BookFields, EventSink, IngestSink, PairLane, TradeFields } from './feed-types.js';

/** The trade as an event object (for sinks that want objects). */
export function tradeEventOf(symbol: string, t: TradeFields): TradeEvent {
  return { type: 'trade', symbol, tsMs: t.tsMs, price: t.price, size: t.size, side: t.side,
    tradeId: t.tradeIdText ?? String(t.tradeId), buyer: t.buyer, seller: t.seller };
}

/** The book as an event object: levels flat, [px, sz, px, sz, ...] best first. */
export function bookEventOf(symbol: string, b: BookFields): BookEvent {
  return { type: 'book', symbol, tsMs: b.tsMs, bids: flatLevels(b.bidPx, b.bidSz, b.bidLevels),
    asks: flatLevels(b.askPx, b.askSz, b.askLevels) };
}

function flatLevels(px: Float64Array, sz: Float64Array, levels: number): number[] {
  const flat: number[] = [];
  for (let i = 0; i < levels; i++) flat.push(px[i], sz[i]);
  return flat;
}

/** Every pair event to the lane of its symbol; events of symbols without a lane are dropped. */
export function eventSinkOf(sink: EventSink | IngestSink): EventSink {
  if (typeof sink === 'function') return sink;
  return (event: MarketEvent) => {
    if ('symbol' in event) sink.lane(event.symbol)?.event(event);
  };
}

/** The lane of `symbol` for either sink shape: a function sink gets trades and books whole. */
export function laneOf(sink: EventSink | IngestSink, symbol: string): PairLane | null {
  if (typeof sink !== 'function') return sink.lane(symbol);
  return { trade: (t) => sink(tradeEventOf(symbol, t)), book: (b) => sink(bookEventOf(symbol, b)),
    event: sink };
}
