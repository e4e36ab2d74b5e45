// The venue's margin tables (metaAndAssetCtxs `marginTables`) per symbol, and the maintenance
// margin they imply: rate = 1 / (2 * max leverage of the tier), with a deduction per tier that
// keeps the maintenance margin continuous in notional.
import {
  failure, positioningErrors as errors, success, type ParseResult,
} from './errors.js';

export interface MaintenanceTier {
  /** Notional (USD) from which the tier applies. */
  readonly lowerBoundUsd: number;
  readonly maxLeverage: number;
  /** Maintenance margin rate: half the initial margin rate at the tier's max leverage. */
  readonly rate: number;
  /** Subtracted from notional * rate so the margin is continuous across tiers. */
  readonly deductionUsd: number;
}

/** Symbol (as the venue names it, `<dex>:<ticker>` on a builder dex) -> tiers, lowest first. */
export type MarginTables = ReadonlyMap<string, readonly MaintenanceTier[]>;

/** Tiers by ascending lower bound, with
 *  deduction(n) = deduction(n-1) + lower(n) * (rate(n) - rate(n-1)). */
export function maintenanceTiers(
  tiers: readonly { lowerBoundUsd: number; maxLeverage: number }[],
): MaintenanceTier[] {
  if (tiers.length === 0) throw new RangeError('a margin table needs at least one tier');
  const sorted = [...tiers].sort((a, b) => a.lowerBoundUsd - b.lowerBoundUsd);
  const out: MaintenanceTier[] = [];
  for (const tier of sorted) {
    if (!(tier.maxLeverage > 0)) throw new RangeError('tier maxLeverage must be positive');
    const rate = 1 / (2 * tier.maxLeverage);
    const before = out[out.length - 1];
    const deductionUsd = before === undefined ? 0
      : before.deductionUsd + tier.lowerBoundUsd * (rate - before.rate);
    out.push({
      lowerBoundUsd: tier.lowerBoundUsd, maxLeverage: tier.maxLeverage, rate, deductionUsd,
    });
  }
  return out;
}

/** The tier that applies to a notional (the highest lower bound not above it). */
export function tierFor(notionalUsd: number, tiers: readonly MaintenanceTier[]): MaintenanceTier {
  let chosen = tiers[0];
  for (const tier of tiers) if (notionalUsd >= tier.lowerBoundUsd) chosen = tier;
  return chosen;
}

export function maintenanceMarginUsd(notionalUsd: number, tiers: readonly MaintenanceTier[]):
  number {
  const tier = tierFor(notionalUsd, tiers);
  return notionalUsd * tier.rate - tier.deductionUsd;
}

interface RawTier { lowerBound?: unknown; maxLeverage?: unknown }
interface RawAsset { name?: unknown; maxLeverage?: unknown; marginTableId?: unknown }

/**
 * Reads the margin table of every listed asset from a metaAndAssetCtxs (or meta) response.
 * Table ids below 50 are a single tier at that leverage (the venue's convention); an asset
 * without a known table gets one tier at its own maxLeverage.
 */
export function parseMarginTables(response: unknown): ParseResult<MarginTables> {
  const meta = (Array.isArray(response) ? response[0] : response) as
    { universe?: unknown; marginTables?: unknown } | null;
  if (typeof meta !== 'object' || meta === null || !Array.isArray(meta.universe)) {
    return failure(errors.invalidField('metaAndAssetCtxs[0].universe', 'an array', meta));
  }
  const tablesById = new Map<number, MaintenanceTier[]>();
  const rawTables = Array.isArray(meta.marginTables) ? meta.marginTables : [];
  for (const [i, entry] of rawTables.entries()) {
    const parsed = parseTable(entry, `metaAndAssetCtxs[0].marginTables[${i}]`);
    if (!parsed.ok) return failure(parsed.error);
    tablesById.set(parsed.value[0], parsed.value[1]);
  }
  const out = new Map<string, readonly MaintenanceTier[]>();
  for (const [i, raw] of (meta.universe as RawAsset[]).entries()) {
    const at = `metaAndAssetCtxs[0].universe[${i}]`;
    if (typeof raw?.name !== 'string') {
      return failure(errors.invalidField(`${at}.name`, 'a string', raw?.name));
    }
    const id = typeof raw.marginTableId === 'number' ? raw.marginTableId : null;
    const own = typeof raw.maxLeverage === 'number' && raw.maxLeverage > 0 ? raw.maxLeverage : null;
    const single = (maxLeverage: number) => maintenanceTiers([{ lowerBoundUsd: 0, maxLeverage }]);
    const table = id === null ? undefined
      : tablesById.get(id) ?? (id > 0 && id < 50 ? single(id) : undefined);
    if (table !== undefined) out.set(raw.name, table);
    else if (own !== null) out.set(raw.name, single(own));
    else {
      return failure(errors.invalidField(`${at}.maxLeverage`, 'a positive number',
        raw.maxLeverage));
    }
  }
  return success(out);
}

function parseTable(entry: unknown, at: string): ParseResult<[number, MaintenanceTier[]]> {
  const [id, body] = Array.isArray(entry) ? entry : [];
  const tiers = (body as { marginTiers?: unknown } | undefined)?.marginTiers;
  if (typeof id !== 'number' || !Array.isArray(tiers) || tiers.length === 0) {
    return failure(errors.invalidField(at, '[id, { marginTiers: [...] }]', entry));
  }
  const parsed: { lowerBoundUsd: number; maxLeverage: number }[] = [];
  for (const [j, tier] of (tiers as RawTier[]).entries()) {
    const lowerBoundUsd = Number(tier?.lowerBound);
    const maxLeverage = Number(tier?.maxLeverage);
    if (!Number.isFinite(lowerBoundUsd) || lowerBoundUsd < 0 || !(maxLeverage > 0)) {
      return failure(errors.invalidField(`${at}.marginTiers[${j}]`,
        'a non-negative lowerBound and a positive maxLeverage', tier));
    }
    parsed.push({ lowerBoundUsd, maxLeverage });
  }
  return success([id, maintenanceTiers(parsed)]);
}
