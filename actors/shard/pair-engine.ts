// The per-pair engine behind a pair actor: folds market events into state and builds its views.
import type {
  MarketEvent, PairOutbound, PairSummary, PairViews, WhalePrint,
} from '../messages.js';

export interface PairEngineOptions {
  readonly cadenceMs: number;
  readonly chartBaseUrl: string;
}

/** What a pair hands its shard once per cadence. */
export interface PairPublish {
  readonly views: PairViews;
  readonly whalePrints: readonly WhalePrint[];
  readonly outbound: readonly PairOutbound[];
}

export interface PairEngine {
  onEvent(event: MarketEvent): void;
  /** Views when anything changed since the last call (or staleness changed), else null. */
  publish(nowMs: number): PairPublish | null;
}

const encoder = new TextEncoder();

/** Minimal engine: last price and trade count (replaced by the kernels' pair analytics). */
export function createPairEngine(symbol: string, options: PairEngineOptions): PairEngine {
  let price: number | null = null;
  let trades = 0;
  let version = 0;
  let updatedAtMs = 0;
  let dirty = false;
  return {
    onEvent(event) {
      if (event.type === 'trade') {
        price = event.price;
        trades++;
        updatedAtMs = event.tsMs;
        dirty = true;
      }
    },
    publish() {
      if (!dirty) return null;
      dirty = false;
      version++;
      const summary: PairSummary = {
        symbol, price, vpin: null, vpinLevel: null, cvd: null, obi: null, ofi: null,
        kyleLambda: null, score: null, direction: 'NEUTRAL', regime: null, stale: false,
        asOfMs: updatedAtMs,
      };
      const body = { symbol, price, trades, cadenceMs: options.cadenceMs };
      return {
        views: { symbol, version, updatedAtMs, summary, views: { pair: encoder.encode(JSON.stringify(body)) } },
        whalePrints: [],
        outbound: [],
      };
    },
  };
}
