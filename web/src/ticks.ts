// Axis ticks for the small SVG charts: round values on the y axis (1, 2 or 5 times a power of
// ten) and whole UTC minutes, hours or days on the time axis.

function ticksAt(min: number, max: number, step: number): number[] {
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
    ticks.push(Math.abs(v) < step * 1e-9 ? 0 : +v.toPrecision(12));
  }
  return ticks;
}

/**
 * Round tick values inside [min, max]: of the steps 1, 2 and 5 times a power of ten near
 * (max - min) / count, the one whose tick count is nearest `count` (at least three).
 */
export function valueTicks(min: number, max: number, count = 4): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  const power = 10 ** Math.floor(Math.log10((max - min) / count));
  const want = Math.max(3, count);
  let best: number[] = [];
  for (const m of [0.5, 1, 2, 5, 10, 20]) {
    const ticks = ticksAt(min, max, m * power);
    if (best.length === 0 || Math.abs(ticks.length - want) < Math.abs(best.length - want)) {
      best = ticks;
    }
  }
  return best;
}

const TIME_STEPS_MS = [60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
  7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000];

/** Tick instants (epoch ms) on whole UTC steps inside [fromMs, toMs], `count` or a few more. */
export function timeTicks(fromMs: number, toMs: number, count = 5): number[] {
  if (!(toMs > fromMs)) return [];
  const fits = TIME_STEPS_MS.filter((s) => s <= (toMs - fromMs) / count);
  const step = fits[fits.length - 1] ?? TIME_STEPS_MS[0];
  const ticks: number[] = [];
  for (let t = Math.ceil(fromMs / step) * step; t <= toMs && ticks.length < 50; t += step) {
    ticks.push(t);
  }
  return ticks;
}

/** A tick instant as `HH:MM` UTC, or `MM-DD` on whole days. */
export function timeLabel(ms: number, stepMs: number): string {
  const iso = new Date(ms).toISOString();
  return stepMs >= 86_400_000 ? iso.slice(5, 10) : iso.slice(11, 16);
}

/** Compact tick label: 1.2K, 3.4M, 0.012; the same number of decimals across one axis. */
export function valueLabel(value: number, step: number): string {
  const abs = Math.abs(value);
  const [div, unit] = abs >= 1e9 ? [1e9, 'B'] : abs >= 1e6 ? [1e6, 'M'] : abs >= 1e4
    ? [1e3, 'K'] : [1, ''];
  const digits = Math.max(0, Math.min(6, -Math.floor(Math.log10(step / div) + 1e-9)));
  return `${(value / div).toFixed(digits)}${unit}`;
}
