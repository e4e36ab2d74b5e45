// vpinLevel: where the current VPIN sits in the pair's own trailing VPIN distribution
// (CDF < 0.75 safe, < 0.90 elevated, < 0.99 high, else extreme), kept in t-digests.
//
// A t-digest cannot forget, so the trailing window is two digests that take turns:
//   [older: up to H values][newer: up to H values]  -> when newer holds H, older is cleared and
// the two swap roles. The CDF is the count-weighted mix of both, over the last H..2H values.
// The digests are the `tdigest` package's TDigest kept in sorted typed arrays (vpin-digest.ts):
// they allocate only when they grow, never per trade.
import { checkOption, reject } from './check.js';
import { VpinDigest } from './vpin-digest.js';

export const VPIN_LEVEL_NAMES = ['safe', 'elevated', 'high', 'extreme'] as const;
export type VpinLevelName = (typeof VPIN_LEVEL_NAMES)[number];
/** Upper CDF bounds of safe, elevated and high. */
const LEVEL_CDF_BOUNDS = [0.75, 0.9, 0.99] as const;
/** Recompress once a digest holds 10 / compression centroids: bounds its memory (~1000). */
const DIGEST_RECOMPRESS = 10;

export interface VpinLevelOptions {
  /** Values in each half of the trailing window (90 days x 50 buckets / 2 by default). */
  readonly halfWindowValues: number;
  /** Values needed before a level is reported. */
  readonly minValues: number;
  /** t-digest compression (max fraction of mass in one centroid). */
  readonly compression: number;
}

export const defaultVpinLevelOptions: VpinLevelOptions = Object.freeze({
  halfWindowValues: 2250,
  minValues: 100,
  compression: 0.01,
});

export interface VpinLevelState {
  readonly halfWindowValues: number;
  readonly minValues: number;
  older: VpinDigest;
  newer: VpinDigest;
  olderCount: number;
  newerCount: number;
  /** Values pushed since the last reset. */
  pushes: number;
  /** The newest value, NaN before any. */
  latest: number;
  /**
   * CDF and level of the newest value (NaN / -1 when unknown), computed lazily by
   * refreshVpinLevel: rating every push would walk the digest's centroids each time.
   */
  cdf: number;
  level: number;
  ratedAtPush: number;
}

export function createVpinLevelState(
  options: VpinLevelOptions = defaultVpinLevelOptions,
): VpinLevelState {
  checkOption('halfWindowValues', options.halfWindowValues, 1, 10_000_000, true);
  checkOption('minValues', options.minValues, 1, 2 * options.halfWindowValues, true);
  checkOption('compression', options.compression, 1e-4, 1);
  return {
    halfWindowValues: options.halfWindowValues, minValues: options.minValues,
    older: new VpinDigest(options.compression, DIGEST_RECOMPRESS),
    newer: new VpinDigest(options.compression, DIGEST_RECOMPRESS),
    olderCount: 0, newerCount: 0, pushes: 0, latest: NaN, cdf: NaN, level: -1, ratedAtPush: 0,
  };
}

export function resetVpinLevel(state: VpinLevelState): void {
  state.older.reset();
  state.newer.reset();
  state.olderCount = 0;
  state.newerCount = 0;
  state.pushes = 0;
  state.latest = NaN;
  state.cdf = NaN;
  state.level = -1;
  state.ratedAtPush = 0;
}

/** Maps a CDF value to a level index (0 safe .. 3 extreme). */
export function levelOfCdf(cdf: number): number {
  let level = 0;
  while (level < LEVEL_CDF_BOUNDS.length && cdf >= LEVEL_CDF_BOUNDS[level]) level++;
  return level;
}

function rankIn(digest: VpinDigest, count: number, value: number): number {
  return count === 0 ? 0 : count * digest.rank(value);
}

/** The trailing CDF of `value`, NaN with fewer than minValues values. */
export function vpinCdf(state: VpinLevelState, value: number): number {
  const total = state.olderCount + state.newerCount;
  if (total < state.minValues) return NaN;
  return (rankIn(state.older, state.olderCount, value) +
    rankIn(state.newer, state.newerCount, value)) / total;
}

/** Adds one VPIN value (a completed bucket) to the trailing distribution. */
export function updateVpinLevel(state: VpinLevelState, vpin: number): void {
  if (!(vpin >= 0 && vpin <= 1)) reject('vpin', 'a number in [0, 1]', vpin);
  if (state.newerCount === state.halfWindowValues) {
    const cleared = state.older;
    cleared.reset();
    state.older = state.newer;
    state.olderCount = state.newerCount;
    state.newer = cleared;
    state.newerCount = 0;
  }
  state.newer.push(vpin);
  state.newerCount += 1;
  state.pushes += 1;
  state.latest = vpin;
}

/** Rates the newest value against the distribution, once per new value (a cache only). */
export function refreshVpinLevel(state: VpinLevelState): void {
  if (state.ratedAtPush === state.pushes) return;
  state.ratedAtPush = state.pushes;
  state.cdf = vpinCdf(state, state.latest);
  state.level = Number.isNaN(state.cdf) ? -1 : levelOfCdf(state.cdf);
}

/** The level name of the newest value, null when unknown. */
export function vpinLevelName(state: VpinLevelState): VpinLevelName | null {
  refreshVpinLevel(state);
  return state.level < 0 ? null : VPIN_LEVEL_NAMES[state.level];
}
