// One pair's footprint (kernels/footprint.ts) inside its engine: trades, candle prints, market
// time and gaps go in; closed bars leave the shard as outbound records (the store keeps them) and
// the open bars, with the newest closed one of each timeframe, make the 'footprint' view.
import {
  advanceFootprint, applyFootprint, closedFootprintAgo, createFootprintBar,
  createFootprintState, defaultFootprintOptions, gapFootprint, openFootprint,
  updateFootprintCandle, type FootprintBar, type FootprintOptions, type FootprintState,
} from '../../kernels/footprint.js';
import { BAR_TIMEFRAMES } from '../../kernels/timeframes.js';
import type { FootprintRecord } from '../../core/footprint.js';
import type { PairOutbound } from '../../core/messages.js';
import { encodeFeedViewAfter } from '../views/encode.js';
import { stringifyRounded } from '../../core/json-numbers.js';

/**
 * The engine keeps two closed bars per timeframe: older ones live in the store, not the heap
 * (issue 39's memory target); the view needs only the newest, until the store has it.
 */
export const pairFootprintOptions: FootprintOptions = Object.freeze({
  ...defaultFootprintOptions, historyBars: 2,
});

/** What the view's freshness fields are made of (pair-views.ts Freshness, in part). */
export interface FootprintFreshness {
  readonly updatedAtMs: number;
  readonly cadenceMs: number;
  readonly stale: boolean;
  readonly asOfMs: number;
}

export class PairFootprint {
  readonly state: FootprintState = createFootprintState(pairFootprintOptions);
  /** Closed bars already sent per timeframe (the ring's closedTotal when last looked at). */
  readonly sentTotal = new Float64Array(BAR_TIMEFRAMES.length);
  private readonly bar: FootprintBar = createFootprintBar(pairFootprintOptions.levelsMax);
  /** The newest closed bar's JSON per timeframe, kept until the next one closes. */
  private readonly closedJson: string[] = BAR_TIMEFRAMES.map(() => 'null');
  private readonly closedJsonTotal = new Float64Array(BAR_TIMEFRAMES.length).fill(-1);

  constructor(private readonly symbol: string) {}

  /** One checked trade at market time `tsMs` (never before the last one). */
  trade(tsMs: number, price: number, size: number, side: number, out: PairOutbound[]): void {
    this.state.lastTsMs = tsMs;
    if (applyFootprint(this.state, tsMs, price, size, side) !== 0) this.sendClosed(out);
  }

  candlePrint(tsMs: number, price: number, out: PairOutbound[]): void {
    if (updateFootprintCandle(this.state, tsMs, price) !== 0) this.sendClosed(out);
  }

  /** Market time moved without a trade (a book): closes the bars that ended. */
  advance(tsMs: number, out: PairOutbound[]): void {
    if (advanceFootprint(this.state, tsMs) !== 0) this.sendClosed(out);
  }

  gap(): void {
    gapFootprint(this.state);
  }

  /** Bars closed with something in them (an empty bar is not kept) go out as records. */
  private sendClosed(out: PairOutbound[]): void {
    const total = this.state.ring.closedTotal;
    for (let t = 0; t < BAR_TIMEFRAMES.length; t++) {
      if (total[t] === this.sentTotal[t]) continue;
      this.sentTotal[t] = total[t];
      if (!closedFootprintAgo(this.state, t, 0, this.bar)) continue;
      const record = recordOf(this.symbol, this.bar);
      out.push({ kind: 'footprint', symbol: this.symbol, tsMs: record.openMs,
        data: record as unknown as Record<string, unknown> });
    }
  }

  /** The 'footprint' view: per timeframe the open bar and the newest closed one, as records. */
  view(f: FootprintFreshness): Uint8Array {
    const parts: string[] = [];
    for (let t = 0; t < BAR_TIMEFRAMES.length; t++) {
      const open = openFootprint(this.state, t, this.bar)
        ? stringifyRounded(recordOf(this.symbol, this.bar)) : 'null';
      parts.push(`${JSON.stringify(BAR_TIMEFRAMES[t])}:{"open":${open},` +
        `"closed":${this.newestClosedJson(t)}}`);
    }
    const head = `"symbol":${JSON.stringify(this.symbol)},"timeframes":{${parts.join(',')}}`;
    return encodeFeedViewAfter(head, { stale: f.stale, asOfMs: f.asOfMs }, f.updatedAtMs,
      f.cadenceMs);
  }

  private newestClosedJson(t: number): string {
    const total = this.state.ring.closedTotal[t];
    if (this.closedJsonTotal[t] !== total) {
      this.closedJsonTotal[t] = total;
      this.closedJson[t] = closedFootprintAgo(this.state, t, 0, this.bar)
        ? stringifyRounded(recordOf(this.symbol, this.bar)) : 'null';
    }
    return this.closedJson[t];
  }
}

/** A kernel bar as a plain record (levels and stacks copied out of the caller-owned bar). */
export function recordOf(symbol: string, bar: FootprintBar): FootprintRecord {
  const stacks: number[] = [];
  for (let k = 0; k < bar.stacks; k++) {
    stacks.push(bar.stackSide[k], bar.stackFrom[k], bar.stackTo[k]);
  }
  return {
    symbol, timeframe: bar.timeframe, openMs: bar.openMs, basis: bar.basis,
    tickSize: bar.tickSize, levelTicks: bar.levelTicks, firstLevel: bar.firstLevel,
    high: bar.high, low: bar.low, clippedVolume: bar.clippedVolume, pocIndex: bar.pocIndex,
    buy: Array.from(bar.buy.subarray(0, bar.levels)),
    sell: Array.from(bar.sell.subarray(0, bar.levels)), stacks,
  };
}
