// Entry-signal detection for one pair, on each closed 5m, 15m and 1h bar: the kernels' bar and
// context go in, a signal (if any) and the closed bars leave the shard as outbound messages.
import {
  closedBarAgo, createKernelBar, type BarsState, type KernelBar,
} from '../../kernels/bars.js';
import type { PairAnalyticsSnapshot } from '../../kernels/pair-snapshot.js';
import { SELL_ABSORBED } from '../../kernels/absorption.js';
import { BAR_TIMEFRAMES } from '../../kernels/timeframes.js';
import type { Bar, PairOutbound, Timeframe } from '../../core/messages.js';
import { createSignalDetector, onClosedBar, resetSignalDetector, type SignalDetector }
  from '../signals/detector.js';
import { barSessionOpen, createSessionCalendars, type SessionCalendars }
  from '../signals/sessions.js';
import { TIMEFRAME_MS, type EntrySignal } from '../signals/types.js';


export class PairSignals {
  private readonly detector: SignalDetector;
  private readonly calendars: SessionCalendars = createSessionCalendars();
  /** Each timeframe's bars.closedTotal when its bars were last sent. */
  private readonly seenClosedTotal = new Float64Array(BAR_TIMEFRAMES.length);
  private readonly olderBar: KernelBar = createKernelBar();

  constructor(private readonly symbol: string) {
    this.detector = createSignalDetector(symbol);
  }

  /** The detector's state tree, for a saved pair state (pair-state.ts). */
  get detectorState(): SignalDetector {
    return this.detector;
  }

  /** A feed gap: swings and levels seen before it no longer hold. */
  reset(): void {
    resetSignalDetector(this.detector);
  }

  /** Restored bars were sent before the state was saved: only later closes go out. */
  barsSent(bars: BarsState): void {
    this.seenClosedTotal.set(bars.closedTotal);
  }

  /**
   * Called with the bitmask of closed timeframes (bit i: timeframe i) and a fresh snapshot;
   * appends the closed bars and any entry signal to `outbound`.
   */
  onBarsClosed(closedMask: number, snapshot: PairAnalyticsSnapshot, bars: BarsState,
    outbound: PairOutbound[]): void {
    for (let t = 0; t < BAR_TIMEFRAMES.length; t++) {
      if ((closedMask & (1 << t)) === 0) continue;
      const kernelBar = snapshot.lastBars[t];
      if (!kernelBar) continue;
      this.olderBarsClosed(t, bars, outbound);
      // The bar and the signal are made here for the outbound alone (the detector copies what
      // it keeps): sent as they are, not copied once more.
      const bar = this.toBar(kernelBar, BAR_TIMEFRAMES[t]);
      outbound.push({ kind: 'bar', symbol: this.symbol, tsMs: bar.openMs, data: asData(bar) });
      const signal = onClosedBar(this.detector, bar, {
        regime: snapshot.regime,
        score: snapshot.score,
        absorption: latestAbsorption(snapshot),
        sessionOpen: barSessionOpen(this.calendars, this.symbol, bar.openMs,
          TIMEFRAME_MS[bar.timeframe]),
      });
      if (signal) {
        outbound.push({ kind: 'entry_signal', symbol: this.symbol, tsMs: bar.openMs,
          data: asData(signal) });
      }
    }
  }

  /**
   * The bars with trades that closed with the newest one (a print after a quiet spell, or the
   * next candle of an hourly warm-up, closes its open bar and writes flat ones after it), oldest
   * first. Only the newest reaches the detector, as before; the bar store needs them all, or an
   * outcome sees an hour as its closing price and books a stop in its range at the next close.
   */
  private olderBarsClosed(t: number, bars: BarsState, outbound: PairOutbound[]): void {
    const total = bars.closedTotal[t];
    const seen = this.seenClosedTotal[t];
    this.seenClosedTotal[t] = total;
    // After a reset of the bars (the count starts over): the newest alone.
    if (!(total > seen)) return;
    const older = Math.min(total - seen, bars.count[t]) - 1;
    for (let back = older; back >= 1; back--) {
      if (!closedBarAgo(bars, t, back, this.olderBar) || this.olderBar.trades === 0) continue;
      const bar = this.toBar(this.olderBar, BAR_TIMEFRAMES[t]);
      outbound.push({ kind: 'bar', symbol: this.symbol, tsMs: bar.openMs, data: asData(bar) });
    }
  }

  private toBar(k: KernelBar, timeframe: Timeframe): Bar {
    return {
      symbol: this.symbol, timeframe, openMs: k.openMs, open: k.open, high: k.high, low: k.low,
      close: k.close, volume: k.volume, buyNotional: k.buyNotional, sellNotional: k.sellNotional,
      cvdClose: k.cvdClose, trades: k.trades,
    };
  }
}

/** An outbound's data: a Bar or EntrySignal (interfaces, which have no index signature). */
const asData = (data: Bar | EntrySignal) => data as unknown as PairOutbound['data'];

function latestAbsorption(s: PairAnalyticsSnapshot):
  { kind: 'buy_absorbed' | 'sell_absorbed'; tsMs: number } | null {
  if (s.absorptions.count === 0) return null;
  return {
    kind: s.absorptions.kind[0] === SELL_ABSORBED ? 'sell_absorbed' : 'buy_absorbed',
    tsMs: s.absorptions.openMs[0],
  };
}
