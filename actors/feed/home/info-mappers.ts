// Pure mappers from the info endpoint's answers (metaAndAssetCtxs, perpDexs, predictedFundings)
// to the normalized records. A bad answer gives a string naming the field, never a throw.
import {
  VENUES, type FundingEvent, type Venue, type VenueFunding,
} from '../../../core/messages.js';
import type { UniverseMarket } from '../../universe/tracked.js';
import { parseAssetCtx } from './asset-ctx.js';
import { decimal, isRecord } from './numbers.js';

/** `[meta, assetCtxs]`: ctx i belongs to universe i; delisted markets keep their place. */
export function parseMetaAndAssetCtxs(raw: unknown, dex: string): UniverseMarket[] | string {
  if (!Array.isArray(raw) || raw.length !== 2 || !isRecord(raw[0]) || !Array.isArray(raw[1])) {
    return 'expected [meta, assetCtxs]';
  }
  const universe = raw[0].universe;
  const ctxs = raw[1];
  if (!Array.isArray(universe)) return 'meta.universe: expected an array';
  if (universe.length !== ctxs.length) {
    return `assetCtxs: expected ${universe.length} entries (was ${ctxs.length})`;
  }
  const out: UniverseMarket[] = [];
  for (let i = 0; i < universe.length; i++) {
    const u: unknown = universe[i];
    if (!isRecord(u) || typeof u.name !== 'string') {
      return `meta.universe[${i}].name: expected a string`;
    }
    const ctx = parseAssetCtx(ctxs[i]);
    if (typeof ctx === 'string') return `assetCtxs[${i}] (${u.name}): ${ctx}`;
    // Builder dexes already answer with full names (xyz:TSLA); be lenient if one does not.
    const symbol = dex !== '' && !u.name.includes(':') ? `${dex}:${u.name}` : u.name;
    out.push({
      symbol, dex, szDecimals: typeof u.szDecimals === 'number' ? u.szDecimals : 0,
      maxLeverage: typeof u.maxLeverage === 'number' ? u.maxLeverage : 1,
      isDelisted: u.isDelisted === true, onlyIsolated: u.onlyIsolated === true, ctx,
    });
  }
  return out;
}

/** `[null, {name, ...}, ...]`: null is the main dex. */
export function parsePerpDexs(raw: unknown): string[] | string {
  if (!Array.isArray(raw)) return 'expected an array';
  const names: string[] = [];
  for (const d of raw) {
    if (d === null) continue;
    if (!isRecord(d) || typeof d.name !== 'string' || !/^[a-z0-9]{1,16}$/.test(d.name)) {
      return 'expected null or {name} entries';
    }
    names.push(d.name);
  }
  return names;
}

/** Venue names in predictedFundings -> ours (docs/decisions.md, Naming). */
export const fundingVenueNames: Readonly<Record<string, Venue>> = {
  HlPerp: 'home', BinPerp: 'exchange_b', BybitPerp: 'exchange_c', OkxPerp: 'exchange_d',
  GatePerp: 'exchange_e',
};

/** `[[coin, [[venueName, {fundingRate, fundingIntervalHours, ...} | null], ...]], ...]`. */
export function parsePredictedFundings(raw: unknown, tsMs: number): FundingEvent[] | string {
  if (!Array.isArray(raw)) return 'expected an array';
  const out: FundingEvent[] = [];
  for (const entry of raw) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) {
      return 'expected [coin, venues] entries';
    }
    const venues: VenueFunding[] = [];
    for (const pair of entry[1] as unknown[]) {
      if (!Array.isArray(pair) || typeof pair[0] !== 'string') continue;
      const venue = fundingVenueNames[pair[0]];
      const info: unknown = pair[1];
      if (!venue || !isRecord(info)) continue;
      const rate = decimal(info.fundingRate);
      const intervalHours = typeof info.fundingIntervalHours === 'number'
        ? info.fundingIntervalHours : venue === 'home' ? 1 : 8;
      if (Number.isFinite(rate) && intervalHours > 0) venues.push({ venue, rate, intervalHours });
    }
    venues.sort((a, b) => VENUES.indexOf(a.venue) - VENUES.indexOf(b.venue));
    out.push({ type: 'funding', tsMs, symbol: entry[0], venues });
  }
  return out;
}
