// The volume profile's shape and geometry, apart from the canvas so they can be tested: bar
// lengths against the busiest level, the value area, and where marks outside the view go.
import { priceY, sumIntoRows, volumeText, type PriceScale } from './footprint-layout.js';

export interface ProfileLevel { price: number; buy: number; sell: number; volume: number }
export interface NakedPoc { price: number; sessionStart: string | number }
export interface VolumeProfile {
  symbol: string; session?: string; start: string | number; end: string | number;
  levelSize: number; pocPrice: number | null; valueAreaHigh: number | null;
  valueAreaLow: number | null; volume: number; levels: ProfileLevel[]; nakedPocs: NakedPoc[];
  basis?: string;
}

/**
 * The profile summed into rows of `rowSize` (the footprint's rows when it merges levels), so
 * its bars line up with the footprint's rows; the value area, POC and naked POCs keep prices.
 */
export function mergeProfileRows(profile: VolumeProfile, rowSize: number): VolumeProfile {
  if (!(profile.levelSize > 0) || profile.levelSize >= rowSize) return profile;
  return { ...profile, levelSize: rowSize,
    levels: sumIntoRows(profile.levels, rowSize, (row, l, price) => ({ price,
      buy: (row?.buy ?? 0) + l.buy, sell: (row?.sell ?? 0) + l.sell,
      volume: (row?.volume ?? 0) + l.volume })) };
}

/** The busiest level's volume: the longest bar. */
export function profileVolumeMax(profile: VolumeProfile): number {
  return profile.levels.reduce((max, l) => Math.max(max, l.volume), 0);
}

/** A level's bar length in px: its share of the busiest level, at least 1 px when traded. */
export function profileBarPx(volume: number, volumeMax: number, widthPx: number): number {
  if (!(volume > 0) || !(volumeMax > 0)) return 0;
  return Math.max(1, (volume / volumeMax) * widthPx);
}

/**
 * Whether a level (its low price) lies in the value area, which runs from the low edge of its
 * lowest level (`valueAreaLow`) to the top edge of its highest (`valueAreaHigh`).
 */
export function inValueArea(price: number, profile: VolumeProfile): boolean {
  const { valueAreaLow: low, valueAreaHigh: high } = profile;
  if (low === null || high === null) return false;
  const air = profile.levelSize * 1e-6;
  return price >= low - air && price < high - air;
}

/**
 * The y of a mark at a level's middle, or the edge it is beyond: marks outside the view are
 * pinned to the top or bottom with an arrow, so a point of control away from the bars still
 * says where it is.
 */
export function markAt(scale: PriceScale, price: number, levelSize: number):
  { y: number; off: 'above' | 'below' | null } {
  const y = priceY(scale, price + levelSize / 2);
  if (y < scale.topPx) return { y: scale.topPx, off: 'above' };
  if (y > scale.topPx + scale.heightPx) return { y: scale.topPx + scale.heightPx, off: 'below' };
  return { y, off: null };
}

/** The profile's figures in a sentence (the screen reader's and the eye's summary). */
export function profileSummary(profile: VolumeProfile, price: (p: number | null) => string):
  string {
  if (profile.levels.length === 0) return 'No trades in this session yet.';
  const naked = profile.nakedPocs.length === 0 ? 'none'
    : profile.nakedPocs.map((n) => `${price(n.price)} (${dayOf(n.sessionStart)})`).join(', ');
  return `Point of control ${price(profile.pocPrice)}, value area ` +
    `${price(profile.valueAreaLow)} to ${price(profile.valueAreaHigh)}, volume ` +
    `${volumeText(profile.volume)}; untested points of control of earlier days: ${naked}.`;
}

/** `MM-DD` of a session start, UTC. */
export function dayOf(start: string | number): string {
  const ms = typeof start === 'number' ? start : Date.parse(start);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(5, 10) : '—';
}
