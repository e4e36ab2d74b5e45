// Axis ticks a person reads at a glance: round steps (1, 2, 2.5, 5 x 10^k) and labels in the
// chart's units (K, M, B for USD; as many decimals as the step needs). Pure: no DOM, no uPlot.

const MULTIPLES = [1, 2, 2.5, 5] as const;

/** Decimals that tell apart values `step` apart (2.5e-3 -> 4). */
export function decimalsOf(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 0;
  for (let digits = 0; digits <= 12; digits++) {
    const scaled = step * 10 ** digits;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return digits;
  }
  return 12;
}

/** The round steps near `raw`, smallest first: one decade below to one above. */
function candidates(raw: number): number[] {
  const decade = 10 ** Math.floor(Math.log10(raw));
  return [decade / 10, decade, decade * 10].flatMap((d) => MULTIPLES.map((m) => m * d));
}

const ticksFor = (min: number, max: number, step: number): number => {
  const first = Math.ceil(min / step - 1e-9);
  const last = Math.floor(max / step + 1e-9);
  return last - first + 1;
};

/**
 * The round step that puts the most ticks in [min, max] without passing `count`, or, where
 * every round step passes it, the fewest; never fewer than 3 (nor than `count` when `count` < 3)
 * while the span is not zero.
 */
export function niceStep(min: number, max: number, count: number): number {
  const span = max - min;
  if (!(span > 0) || !Number.isFinite(span)) return 0;
  const least = Math.min(3, count);
  let best = 0;
  let bestScore = -Infinity;
  for (const step of candidates(span / Math.max(1, count - 1))) {
    const n = ticksFor(min, max, step);
    // Within [least, count] more is better; above count fewer is better, yet still beats none.
    const score = n < least ? -Infinity : n <= count ? 1_000 + n : -n;
    if (score > bestScore) [best, bestScore] = [step, score];
  }
  return best;
}

/** Round values between min and max (both included when they fall on the step), ascending. */
export function niceTicks(min: number, max: number, count: number): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max < min) return [];
  const step = niceStep(min, max, count);
  if (step === 0) return [min];
  const digits = decimalsOf(step);
  const out: number[] = [];
  const first = Math.ceil(min / step - 1e-9);
  const last = Math.floor(max / step + 1e-9);
  // Each tick from its own index (no running sum) and cut to the step's decimals: no 0.30000004.
  for (let i = first; i <= last && out.length < 1_000; i++) out.push(+(i * step).toFixed(digits));
  return out;
}

/**
 * [min, max] widened by 5 % of the span either side; a flat series gets a band around its
 * value. Not widened out to whole steps: that adds up to two ticks to a short chart's few.
 */
export function paddedRange(min: number, max: number): [number, number] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  const span = max - min || Math.abs(max) * 0.01 || 1;
  return [min - span * 0.05, max + span * 0.05];
}

const UNITS = [[1e9, 'B'], [1e6, 'M'], [1e3, 'K']] as const;

/**
 * Labels for ticks in a quantity of USD: one unit for the whole axis (the largest tick's), with
 * the decimals the step needs in it: `-500M 0 500M 1B` reads as `-0.5B 0 0.5B 1B`.
 */
export function compactLabels(ticks: readonly number[]): string[] {
  if (ticks.length === 0) return [];
  const largest = Math.max(...ticks.map(Math.abs));
  const [divisor, unit] = UNITS.find(([d]) => largest >= d) ?? [1, ''];
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : largest || 1;
  const digits = decimalsOf(+(step / divisor).toPrecision(6));
  return ticks.map((v) => (v === 0 ? '0' : `${(v / divisor).toFixed(digits)}${unit}`));
}

/** Labels with thousands separators and the step's decimals: `97,250.5`, `0.25`. */
export function plainLabels(ticks: readonly number[]): string[] {
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : 1;
  const digits = decimalsOf(+step.toPrecision(6));
  return ticks.map((v) => v.toLocaleString('en-US',
    { minimumFractionDigits: digits, maximumFractionDigits: digits }));
}

/** Labels as percentages of a 0..1 quantity: 0.25 -> `25 %`. */
export function percentLabels(ticks: readonly number[]): string[] {
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) * 100 : 1;
  const digits = decimalsOf(+step.toPrecision(6));
  return ticks.map((v) => `${(v * 100).toFixed(digits)} %`);
}

/** The UTC midnights (epoch seconds) after `fromSeconds` up to `toSeconds`, at most `max`. */
export function utcMidnights(fromSeconds: number, toSeconds: number, max = 400): number[] {
  const out: number[] = [];
  for (let t = Math.floor(fromSeconds / 86_400) * 86_400 + 86_400; t <= toSeconds &&
    out.length < max; t += 86_400) out.push(t);
  return out;
}
