// Adapters between the two shapes of a feed's sink: a function that takes every event as an
// object (tests, record), and a shard's per-pair lanes that take trades as fields.
import type { MarketEvent, TradeEvent } from '../messages.js';
import type { EventSink, IngestSink, PairLane, TradeFields } from './feed-types.js';

/** The trade as an event object (for sinks that want objects). */
export function tradeEventOf(symbol: string, t: TradeFields): TradeEvent {
  return { type: 'trade', symbol, tsMs: t.tsMs, price: t.price, size: t.size, side: t.side,
    tradeId: t.tradeIdText ?? String(t.tradeId), buyer: t.buyer, seller: t.seller };
}

/** Every pair event to the lane of its symbol; events of symbols without a lane are dropped. */
export function eventSinkOf(sink: EventSink | IngestSink): EventSink {
  if (typeof sink === 'function') return sink;
  return (event: MarketEvent) => {
    if ('symbol' in event) sink.lane(event.symbol)?.event(event);
  };
}

/** The lane of `symbol` for either sink shape: a function sink gets trades made whole. */
export function laneOf(sink: EventSink | IngestSink, symbol: string): PairLane | null {
  if (typeof sink !== 'function') return sink.lane(symbol);
  return { trade: (t) => sink(tradeEventOf(symbol, t)), event: sink };
}
