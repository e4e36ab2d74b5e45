// Maps the venue's asset context (in metaAndAssetCtxs and activeAssetCtx) to AssetCtx.
import type { AssetCtx } from '../../../core/messages.js';
import { decimal, isRecord, optionalDecimal } from './numbers.js';

/** The AssetCtx, or a string naming the first bad field. */
export function parseAssetCtx(raw: unknown): AssetCtx | string {
  if (!isRecord(raw)) return 'ctx: expected an object';
  const markPx = decimal(raw.markPx);
  const prevDayPx = decimal(raw.prevDayPx);
  const dayNtlVlm = decimal(raw.dayNtlVlm);
  const openInterest = decimal(raw.openInterest);
  const fundingRate = decimal(raw.funding);
  const oraclePx = optionalDecimal(raw.oraclePx);
  const midPx = optionalDecimal(raw.midPx);
  if (!(markPx > 0)) return `markPx: expected a positive decimal (was ${String(raw.markPx)})`;
  if (!(prevDayPx >= 0)) return `prevDayPx: expected a decimal >= 0 (was ${String(raw.prevDayPx)})`;
  if (!(dayNtlVlm >= 0)) return `dayNtlVlm: expected a decimal >= 0 (was ${String(raw.dayNtlVlm)})`;
  if (!(openInterest >= 0)) {
    return `openInterest: expected a decimal >= 0 (was ${String(raw.openInterest)})`;
  }
  if (!Number.isFinite(fundingRate)) {
    return `funding: expected a decimal (was ${String(raw.funding)})`;
  }
  if (Number.isNaN(oraclePx) || Number.isNaN(midPx)) return 'oraclePx/midPx: expected decimals';
  return { markPx, prevDayPx, dayNtlVlm, openInterest, fundingRate, oraclePx, midPx };
}
