// The footprint chart's geometry and words, apart from the canvas so they can be tested: the
// answers' shapes, the price scale and its ticks, which cells can hold "bid x ask" numbers, the
// buy/sell colour scale, the time labels (UTC) and the bar cursor's keys.

export interface FootprintLevel { price: number; buy: number; sell: number; delta: number }
export interface StackedImbalance {
  side: 'buy' | 'sell'; fromPrice: number; toPrice: number; levels: number;
}
export interface FootprintBar {
  openTime: string | number; closeTime: string | number; closed: boolean;
  basis: 'trades' | 'candles' | 'mixed'; high: number; low: number; volume: number;
  delta: number; pocPrice: number | null; clippedVolume: number;
  /** Ascending; `price` is the level's low. */
  levels: FootprintLevel[];
  stackedImbalances: StackedImbalance[];
}
export interface Footprint {
  symbol: string; timeframe: string; tickSize: number; levelSize: number; bars: FootprintBar[];
}

/** The cells' numbers: 11 px monospace, which needs a row of at least 13 px. */
export const FONT_PX = 11;
export const ROW_TEXT_MIN_PX = 13;
/** Space either side of the numbers inside a cell, and around the " x ". */
export const CELL_PAD_PX = 3;

/** Epoch ms of an answer's time (ISO 8601, as the feeds write it, or epoch ms). */
export function timeMs(value: string | number): number {
  return typeof value === 'number' ? value : Date.parse(value);
}

/**
 * A level's volume in at most 5 characters, so "bid x ask" fits a narrow column: .042, 0.42,
 * 4.21, 42.1, 421, 4.2K, 42K, 4.2M (below 0.1 without the leading zero).
 */
export function volumeText(value: number): string {
  const abs = Math.abs(value);
  if (abs === 0) return '0';
  if (abs >= 1e6) return `${+(value / 1e6).toFixed(1)}M`;
  if (abs >= 1e4) return `${Math.round(value / 1e3)}K`;
  if (abs >= 1e3) return `${(value / 1e3).toFixed(1)}K`;
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 0.1) return value.toFixed(2);
  if (abs < 0.0005) return `${value < 0 ? '-' : ''}<.001`;
  return value.toFixed(3).replace(/^(-?)0\./, '$1.');
}

/** "bid x ask": what sellers hit on the bid, what buyers lifted on the ask. */
export function cellText(level: FootprintLevel): [bid: string, ask: string] {
  return [volumeText(level.sell), volumeText(level.buy)];
}

/**
 * Whether a cell holds its numbers: the bid right-aligned before the column's middle, " x " on
 * it and the ask after, so every row's "x" lines up; `widestPx` is the wider of the two texts.
 */
export function fitsNumbers(widestPx: number, crossPx: number, cellWidthPx: number,
  rowHeightPx: number): boolean {
  if (rowHeightPx < ROW_TEXT_MIN_PX) return false;
  return 2 * (widestPx + CELL_PAD_PX) + crossPx <= cellWidthPx;
}

/** The largest level delta of the bars (the colour scale's end); 0 when all are even. */
export function deltaScaleMax(bars: readonly FootprintBar[]): number {
  let max = 0;
  for (const bar of bars) for (const l of bar.levels) max = Math.max(max, Math.abs(l.delta));
  return max;
}

/**
 * A cell's colour: buyers' hue when its delta is positive, sellers' when negative, a neutral
 * one when even; opacity grows with |delta| on a square-root scale, so small imbalances show.
 */
export function cellShade(delta: number, volume: number, scaleMax: number):
  { side: 'buy' | 'sell' | 'even'; alpha: number } {
  if (volume <= 0) return { side: 'even', alpha: 0 };
  if (delta === 0 || scaleMax <= 0) return { side: 'even', alpha: 0.12 };
  const share = Math.min(1, Math.abs(delta) / scaleMax);
  return { side: delta > 0 ? 'buy' : 'sell', alpha: +(0.12 + 0.73 * Math.sqrt(share)).toFixed(3) };
}

/** `#rrggbb` (a theme's colour) at an opacity, for the canvas. */
export function rgba(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!m) return hex;
  return `rgba(${parseInt(m[1], 16)}, ${parseInt(m[2], 16)}, ${parseInt(m[3], 16)}, ${alpha})`;
}

/**
 * A bar's level size: the step between its levels (a bar of an earlier UTC day may have other
 * levels than the answer's `levelSize`, which is the newest bar's), else the answer's.
 */
export function barLevelSize(bar: FootprintBar, fallback: number): number {
  const step = bar.levels.length > 1 ? bar.levels[1].price - bar.levels[0].price : 0;
  return step > 0 ? +step.toPrecision(10) : fallback;
}

/**
 * The row size that keeps a view to at most `rowsMax` rows: the level size times the smallest
 * power of two that does (levels are powers of two of ticks, so rows hold whole levels).
 */
export function rowSizeFor(levels: number, levelSize: number, rowsMax: number): number {
  if (levels <= rowsMax) return levelSize;
  return levelSize * 2 ** Math.ceil(Math.log2(levels / rowsMax));
}

/**
 * A bar with its levels summed into rows of `rowSize` (a multiple of its level size): the
 * point of control moves to the row that holds it; the stacks keep their prices.
 */
export function mergeRows(bar: FootprintBar, rowSize: number): FootprintBar {
  if (bar.levels.length === 0 || barLevelSize(bar, rowSize) >= rowSize) return bar;
  const levels = sumIntoRows(bar.levels, rowSize, (row, l, price) => ({ price,
    buy: (row?.buy ?? 0) + l.buy, sell: (row?.sell ?? 0) + l.sell,
    delta: (row?.delta ?? 0) + l.delta }));
  const poc = bar.pocPrice === null ? null : rowPrice(bar.pocPrice, rowSize);
  return { ...bar, levels, pocPrice: poc };
}

/** The low price of the row of `rowSize` that holds `price` (rounded off float noise). */
export function rowPrice(price: number, rowSize: number): number {
  return +(Math.floor(price / rowSize + 1e-9) * rowSize).toPrecision(12);
}

/** Levels summed into rows of `rowSize` by `add`, lowest row first. */
export function sumIntoRows<L extends { price: number }>(levels: readonly L[], rowSize: number,
  add: (row: L | undefined, level: L, price: number) => L): L[] {
  const rows = new Map<number, L>();
  for (const l of levels) {
    const price = rowPrice(l.price, rowSize);
    rows.set(price, add(rows.get(price), l, price));
  }
  return [...rows.values()].sort((a, b) => a.price - b.price);
}

/** A price scale from `low` to `high` (the top level's top) over a plot of `heightPx`. */
export interface PriceScale { low: number; high: number; topPx: number; heightPx: number }

/** The y of a price on the scale (higher prices higher up). */
export function priceY(scale: PriceScale, price: number): number {
  return scale.topPx + ((scale.high - price) / (scale.high - scale.low)) * scale.heightPx;
}

/** The prices the bars span, in whole levels, with one level of air above and below. */
export function barsRange(bars: readonly FootprintBar[], levelSize: number):
  { low: number; high: number; levels: number } | null {
  let low = Infinity;
  let high = -Infinity;
  for (const bar of bars) {
    const first = bar.levels[0]?.price ?? bar.low;
    const last = (bar.levels[bar.levels.length - 1]?.price ?? bar.high) +
      barLevelSize(bar, levelSize) - levelSize;
    low = Math.min(low, bar.low, first);
    high = Math.max(high, bar.high, last);
  }
  if (!Number.isFinite(low) || !(levelSize > 0)) return null;
  const lowLevel = Math.floor(low / levelSize + 1e-9) - 1;
  const highLevel = Math.floor(high / levelSize + 1e-9) + 2;
  return { low: lowLevel * levelSize, high: highLevel * levelSize, levels: highLevel - lowLevel };
}

/** Price axis ticks: multiples of a round step (1, 2, 2.5 or 5 x 10^k) at least `gapPx` apart. */
export function priceTicks(scale: PriceScale, gapPx = 40): number[] {
  const span = scale.high - scale.low;
  if (!(span > 0) || !(scale.heightPx > 0)) return [];
  const least = (span * gapPx) / scale.heightPx;
  const power = 10 ** Math.floor(Math.log10(least));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= least * (1 - 1e-9))!;
  const ticks: number[] = [];
  for (let i = Math.ceil(scale.low / step - 1e-9); i * step <= scale.high + 1e-9; i++) {
    ticks.push(+(i * step).toPrecision(12));
  }
  return ticks;
}

/** A price label with as many decimals as the step between ticks needs. */
export function priceLabel(price: number, step: number): string {
  let digits = 0;
  while (digits < 10 && Math.abs(step * 10 ** digits - Math.round(step * 10 ** digits)) > 1e-6) {
    digits++;
  }
  return price.toLocaleString('en-US', { minimumFractionDigits: digits,
    maximumFractionDigits: digits });
}

/** A bar's time on the axis, UTC: `HH:MM`, with `MM-DD` on the first bar of each day. */
export function timeLabels(times: readonly number[]): { clock: string; day: string | null }[] {
  let lastDay = '';
  return times.map((ms) => {
    const iso = new Date(ms).toISOString();
    const day = iso.slice(5, 10);
    const label = { clock: iso.slice(11, 16), day: day === lastDay ? null : day };
    lastDay = day;
    return label;
  });
}

/** The bar cursor after a key: arrows one bar, Page keys ten, Home and End the ends. */
export function moveCursor(index: number, key: string, count: number): number | null {
  const step: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10,
    PageDown: 10, Home: -Infinity, End: Infinity };
  if (!(key in step) || count === 0) return null;
  return Math.max(0, Math.min(count - 1, index + step[key]));
}

/** The first bar shown: the window of `shown` bars ending at the newest, moved to hold `cursor`. */
export function windowStart(count: number, shown: number, cursor: number, start: number):
  number {
  const last = Math.max(0, count - shown);
  if (cursor < start) return cursor;
  if (cursor >= start + shown) return Math.min(last, cursor - shown + 1);
  return Math.min(start, last);
}
