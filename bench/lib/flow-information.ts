// How much the simulator's visible order flow says about the next move: the correlation between
// a pair's signed flow over a window (CVD in notional) and its return over the following hours,
// measured on the pair simulator's prints alone (what a detector sees), never its internals.
import { referencePx } from '../../actors/feed/sim/market-model.js';
import { PairSimulator } from '../../actors/feed/sim/pair-sim.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';

export interface FlowInformationOptions {
  readonly seed: number;
  readonly informedShare: number;
  readonly symbols: readonly string[];
  readonly startMs: number;
  readonly days: number;
  /** Window of the signed flow (default 5 minutes). */
  readonly flowWindowMs?: number;
  /** Horizon of the return that follows the window (default 4 hours). */
  readonly horizonMs?: number;
}

export interface FlowInformation {
  /** Pearson correlation of per-pair standardised CVD with the next return, pooled. */
  readonly correlation: number;
  /** The same on per-pair ranks (Spearman): what heavy-tailed sizes do not dominate. */
  readonly rankCorrelation: number;
  /** Samples pooled (one per window and pair; the returns of neighbours overlap). */
  readonly samples: number;
  /** Non-overlapping horizons pooled: the count a standard error should use. */
  readonly independentSamples: number;
  readonly bySymbol: readonly { symbol: string; correlation: number; trades: number }[];
}

export function pearson(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i] / n;
    my += ys[i] / n;
  }
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(xs.length);
  order.forEach(([, i], r) => {
    out[i] = r;
  });
  return out;
}

function standardised(xs: readonly number[]): number[] {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length) || 1;
  return xs.map((x) => (x - mean) / sd);
}

/** Runs each pair for `days` of market time and correlates its CVD with its next return. */
export function measureFlowInformation(o: FlowInformationOptions): FlowInformation {
  const windowMs = o.flowWindowMs ?? 5 * 60_000;
  const horizonMs = o.horizonMs ?? 4 * 3_600_000;
  const world = simWorld(o.seed, undefined, o.informedShare);
  const buckets = Math.floor((o.days * 86_400_000) / windowMs);
  const ahead = Math.round(horizonMs / windowMs);
  const flows: number[] = [];
  const returns: number[] = [];
  const flowRanks: number[] = [];
  const returnRanks: number[] = [];
  const bySymbol: { symbol: string; correlation: number; trades: number }[] = [];
  for (const symbol of o.symbols) {
    const market = world.bySymbol.get(symbol);
    if (!market) throw new Error(`unknown symbol ${symbol}`);
    const sim = new PairSimulator(o.seed, market, world.picker, o.startMs);
    const cvd = new Float64Array(buckets);
    const close = new Float64Array(buckets);
    let trades = 0;
    let lastPx = NaN;
    for (let b = 0; b < buckets; b++) {
      sim.advanceTo(o.startMs + (b + 1) * windowMs - 1, (e) => {
        if (e.type !== 'trade') return;
        trades++;
        cvd[b] += e.side * e.size * e.price;
        lastPx = e.price;
      });
      close[b] = lastPx;
    }
    const xs: number[] = [];
    const ys: number[] = [];
    for (let b = 0; b + ahead < buckets; b++) {
      if (!(close[b] > 0 && close[b + ahead] > 0)) continue;
      xs.push(cvd[b]);
      ys.push(Math.log(close[b + ahead] / close[b]));
    }
    const zx = standardised(xs);
    const zy = standardised(ys);
    bySymbol.push({ symbol, correlation: pearson(zx, zy), trades });
    flows.push(...zx);
    returns.push(...zy);
    flowRanks.push(...standardised(ranks(xs)));
    returnRanks.push(...standardised(ranks(ys)));
  }
  return { correlation: pearson(flows, returns),
    rankCorrelation: pearson(flowRanks, returnRanks), samples: flows.length,
    independentSamples: Math.floor(flows.length / ahead), bySymbol };
}

/**
 * The warm-up's candles carry flow through their split (bulk volume classification: a candle
 * that rose was mostly bought), so their flow is their return: the correlation of each 5-minute
 * return of the candle path with the next 4 h return, pooled over pairs.
 */
export function measureCandleInformation(o: FlowInformationOptions): number {
  const windowMs = o.flowWindowMs ?? 5 * 60_000;
  const horizonMs = o.horizonMs ?? 4 * 3_600_000;
  const world = simWorld(o.seed, undefined, o.informedShare);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const symbol of o.symbols) {
    const market = world.bySymbol.get(symbol)!;
    const px = (tMs: number) => Math.log(referencePx(o.seed, market, tMs));
    const fx: number[] = [];
    const fy: number[] = [];
    for (let t = o.startMs; t + windowMs + horizonMs <= o.startMs + o.days * 86_400_000;
      t += windowMs) {
      fx.push(px(t + windowMs) - px(t));
      fy.push(px(t + windowMs + horizonMs) - px(t + windowMs));
    }
    xs.push(...standardised(fx));
    ys.push(...standardised(fy));
  }
  return pearson(xs, ys);
}
