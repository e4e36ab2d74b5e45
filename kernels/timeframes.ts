// The time grids kernels aggregate on: bar timeframes and CVD history intervals (UTC-aligned).

/** Bar timeframes, in the order kernels index them (0: 5m, 1: 15m, 2: 1h). */
export const BAR_TIMEFRAMES = ['5m', '15m', '1h'] as const;
export type BarTimeframe = (typeof BAR_TIMEFRAMES)[number];
export const BAR_TIMEFRAME_MS = [300_000, 900_000, 3_600_000] as const;

/** CVD history intervals, in the order kernels index them (0: 1m .. 3: 1h). */
export const CVD_INTERVALS = ['1m', '5m', '15m', '1h'] as const;
export type CvdInterval = (typeof CVD_INTERVALS)[number];
export const CVD_INTERVAL_MS = [60_000, 300_000, 900_000, 3_600_000] as const;

export const DAY_MS = 86_400_000;

/** Start of the UTC-aligned slot of length `slotMs` holding `tsMs` (epoch is UTC midnight). */
export function slotStartMs(tsMs: number, slotMs: number): number {
  return Math.floor(tsMs / slotMs) * slotMs;
}
