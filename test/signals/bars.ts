// Helpers for the signals tests: hand-made bars and a replay of a bar sequence.
import type { Bar, Timeframe } from '../../core/messages.js';
import {
  onClosedBar, type SignalContext, type SignalDetector,
} from '../../actors/signals/detector.js';
import { TIMEFRAME_MS, type EntrySignal } from '../../actors/signals/types.js';

/** 2026-03-10 00:00 UTC, a Tuesday. */
export const T0 = Date.UTC(2026, 2, 10);

export interface BarInput {
  o: number;
  h: number;
  l: number;
  c: number;
  buy?: number;
  sell?: number;
  volume?: number;
}

/** Bars of one timeframe starting at startMs, one per step; flow 0 and volume 0 by default. */
export function bars(symbol: string, inputs: readonly BarInput[], startMs = T0,
  timeframe: Timeframe = '5m'): Bar[] {
  return inputs.map((b, i) => ({
    symbol, timeframe, openMs: startMs + i * TIMEFRAME_MS[timeframe],
    open: b.o, high: b.h, low: b.l, close: b.c, volume: b.volume ?? 0,
    buyNotional: b.buy ?? 0, sellNotional: b.sell ?? 0, cvdClose: 0, trades: 1,
  }));
}

export const quiet: SignalContext = Object.freeze({
  regime: null, score: null, absorption: null, sessionOpen: null,
});

/** Feeds every bar and returns what each one produced (null or a signal). */
export function replay(detector: SignalDetector, sequence: readonly Bar[],
  context: SignalContext | ((bar: Bar, index: number) => SignalContext) = quiet):
  (EntrySignal | null)[] {
  return sequence.map((bar, i) =>
    onClosedBar(detector, bar, typeof context === 'function' ? context(bar, i) : context));
}

/** Indexes of the bars that produced a signal. */
export function firedAt(results: readonly (EntrySignal | null)[]): number[] {
  return results.flatMap((r, i) => (r === null ? [] : [i]));
}

/** Plain 5m bars for outcome tests: o/h/l/c at consecutive 5-minute opens from startMs. */
export function ohlc(symbol: string, startMs: number, rows: readonly [number, number, number,
  number][]): Bar[] {
  return bars(symbol, rows.map(([o, h, l, c]) => ({ o, h, l, c })), startMs, '5m');
}
