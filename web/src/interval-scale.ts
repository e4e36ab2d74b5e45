// The axis that a table's interval bars share (interval-bar.tsx): its ends, and where a value
// falls on it.

export interface Scale { min: number; max: number }

/** A scale holding every value and 0, widened to whole tenths so its ends read as numbers. */
export function scaleOf(values: readonly (number | null | undefined)[]): Scale {
  const finite = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  let min = Math.min(0, ...finite);
  let max = Math.max(0, ...finite);
  const pad = Math.max((max - min) * 0.05, 0.05);
  min = Math.floor((min - pad) * 10) / 10;
  max = Math.ceil((max + pad) * 10) / 10;
  return { min, max };
}

/** Where value falls on the scale, as a percentage of its width (clamped to the ends). */
export function at(scale: Scale, value: number): number {
  const share = (value - scale.min) / (scale.max - scale.min);
  return Math.min(100, Math.max(0, share * 100));
}
