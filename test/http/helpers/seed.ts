// Seed data for the HTTP tests: views shaped as the runtime publishes them, keys of each plan,
// and in-memory KeyDirectory / UsageCounters.
import { createHash } from 'node:crypto';
import type { KeyDirectory, KeyRecord, Plan, UsageCounters } from '../../../core/messages.js';
import { SnapshotStore } from '../../../http/snapshots.js';

export const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

export function keyFor(n: number): string {
  return 'ofk_' + createHash('md5').update(String(n)).digest('hex');
}

export class MemoryKeys implements KeyDirectory {
  private readonly byDigestMap = new Map<string, KeyRecord>();
  add(key: string, plan: Plan, extra: Partial<KeyRecord> = {}): KeyRecord {
    const record: KeyRecord = {
      prefix: key.slice(0, 12), digest: createHash('sha256').update(key).digest('hex'), plan,
      label: null, subscriptionStartMs: null, createdAtMs: T0, revokedAtMs: null, ...extra,
    };
    this.byDigestMap.set(record.digest, record);
    return record;
  }
  byDigest(digest: string) { return this.byDigestMap.get(digest); }
  byPrefix(prefix: string) {
    return [...this.byDigestMap.values()].find((r) => r.prefix === prefix);
  }
}

export class MemoryUsage implements UsageCounters {
  readonly counts = new Map<string, number>();
  get(identity: string, dayKey: string) { return this.counts.get(`${identity}|${dayKey}`) ?? 0; }
  increment(identity: string, dayKey: string) {
    const n = this.get(identity, dayKey) + 1;
    this.counts.set(`${identity}|${dayKey}`, n);
    return n;
  }
}

const pair = (symbol: string, dex: string, price: number, tracked: boolean, delisted = false) => ({
  symbol, dex, price, change24h: delisted ? 0 : 1.25, volume24h: delisted ? 0 : 1.5e9,
  openInterest: delisted ? 0 : 8e8, fundingRate: 0.0000125, fundingAnnualized: 10.95,
  delisted, tracked, stale: false,
});

function pairDetail(symbol: string, tracked: boolean, updatedAt: string) {
  return {
    symbol, price: 97000.5, change24h: 1.25, volume24h: 1.5e9, openInterest: 8e8,
    fundingRate: 0.0000125, fundingAnnualized: 10.95,
    vpin: tracked ? 0.42 : null, vpinLevel: tracked ? 'elevated' : null,
    signalScore: tracked ? 35 : null, signalDirection: tracked ? 'LONG' : null,
    regime: tracked ? 'trending' : null, basis: tracked ? 'trades' : null, tracked, stale: false,
    asOf: updatedAt, updatedAt, cadenceMs: 1000,
  };
}

function deepView(symbol: string, updatedAt: string) {
  return {
    symbol, price: 97000.5, cvd: 1.2e6, obi: 0.12, ofi: -3.5, vpin: 0.42, kyleLambda: 0.0000021,
    regime: 'trending', signalScore: 35, basis: 'trades', updatedAt, cadenceMs: 1000, stale: false,
    asOf: updatedAt, cvdHistory: [{ time: updatedAt, cvd: 1.2e6 }],
    whales: [{ address: '0x' + 'ab'.repeat(20), side: 'buy', notional: 2.5e6, price: 96950,
      size: 25.8, time: updatedAt }],
    smartMoney: { long: { fund: 1e6, smart_money: 5e5 }, short: { degen: 2e5 }, net: 1.3e6 },
    absorption: [{ time: updatedAt, kind: 'bid', notional: 7.5e5 }],
  };
}

function cvdView(symbol: string, updatedAt: string) {
  const series = (stepMs: number) =>
    Array.from({ length: 1500 }, (_, i) => [T0 - (1500 - i) * stepMs, i * 10]);
  return {
    symbol, cvd: 14990,
    history: { '1m': series(60_000), '5m': series(300_000), '15m': series(900_000),
      '1h': series(3_600_000) },
    updatedAt, cadenceMs: 1000, stale: false, asOf: updatedAt,
  };
}

/** A footprint record of BTC's (core/footprint.ts): tick 1, 2 ticks a level. */
export function footprintRecord(timeframe: '5m' | '15m' | '1h', openMs: number,
  basis: 'trades' | 'candles' = 'trades') {
  const levels = basis === 'trades';
  return {
    symbol: 'BTC', timeframe, openMs, basis, tickSize: 1, levelTicks: 2, firstLevel: 48_500,
    high: 97_005, low: 97_000, clippedVolume: 0, pocIndex: levels ? 1 : -1,
    buy: levels ? [0.5, 2, 1.25] : [], sell: levels ? [0.1, 1.5, 0] : [],
    stacks: levels ? [1, 0, 2] : [],
  };
}

/** The 'footprint/<SYMBOL>' view: the open and newest closed bar per timeframe. */
function footprintView(symbol: string, updatedAt: string) {
  const open5m = Math.floor(T0 / 300_000) * 300_000;
  const timeframes = {
    '5m': { open: footprintRecord('5m', open5m), closed: footprintRecord('5m', open5m - 300_000) },
    '15m': { open: null, closed: null },
    '1h': { open: footprintRecord('1h', Math.floor(T0 / 3_600_000) * 3_600_000, 'candles'),
      closed: null },
  };
  return { symbol, timeframes, updatedAt, cadenceMs: 1000, stale: false, asOfMs: T0 };
}

export const WALLET = '0x' + 'ab'.repeat(20);

function views(updatedAt: string): Record<string, unknown> {
  const position = {
    address: WALLET, label: 'desk, "alpha"', category: 'fund', accountValue: 1.2e7, symbol: 'BTC',
    side: 'long', notional: 2.5e6, leverage: 5, entryPrice: 95000, unrealizedPnl: 52000,
  };
  const venue = (rate: number, intervalHours: number) =>
    ({ rate, intervalHours, annualized: rate * (24 / intervalHours) * 365 * 100 });
  const arb = {
    symbol: 'BTC', home: 0.0000125, exchange_b: 0.0001, exchange_c: null, exchange_d: 0.00005,
    exchange_e: null, maxSpread: 0.0000125, spread: 0.0000125, spreadAnnualized: 10.95,
    longVenue: 'exchange_d', shortVenue: 'home',
    venues: { home: venue(0.0000125, 1), exchange_b: venue(0.0001, 8), exchange_c: null,
      exchange_d: venue(0.00005, 8), exchange_e: null },
    openInterest: 2.6e9, volume24h: 2.1e9, tracked: true,
  };
  const wallet = { address: WALLET, label: 'desk', category: 'fund', accountValue: 1.2e7,
    positions: [position] };
  return {
    'screener': { pairs: [pair('BTC', '', 97000.5, true), pair('kPEPE', '', 0.0000123, true),
      pair('LUNA', '', 0.1, false, true), pair('xyz:TSLA', 'xyz', 250.5, false),
      pair('=HACK', '', 1, false)], count: 5, updatedAt, cadenceMs: 5000 },
    'signals': { BTC: { symbol: 'BTC', score: 35, direction: 'LONG', vpin: 0.42, cvd: 1.2e6,
      regime: 'trending', fundingAnnualized: 10.95 } },
    'smart-money': { wallets: 1, positions: [position], updatedAt, cadenceMs: 1000 },
    'funding-arb': { pairs: [arb], updatedAt, cadenceMs: 5000 },
    'wallets': { wallets: [wallet], count: 1, updatedAt, cadenceMs: 1000 },
    [`wallets/${WALLET}`]: { ...wallet, updatedAt, cadenceMs: 1000 },
    'pair/BTC': pairDetail('BTC', true, updatedAt),
    'pair/kPEPE': pairDetail('kPEPE', true, updatedAt),
    'pair/xyz:TSLA': pairDetail('xyz:TSLA', false, updatedAt),
    'deep-view/BTC': deepView('BTC', updatedAt),
    'deep-view/kPEPE': deepView('kPEPE', updatedAt),
    'cvd/BTC': cvdView('BTC', updatedAt),
    'footprint/BTC': footprintView('BTC', updatedAt),
    'liquidation-map/BTC': { symbol: 'BTC', markPrice: 97000.5, bandWidthPct: 0.5, coverage: 0.8,
      bands: [{ priceLow: 96500, priceHigh: 97000, longNotional: 1e6, shortNotional: 0 }],
      updatedAt, cadenceMs: 5000 },
  };
}

/** A store holding every view; screener and funding-arb at the universe cadence (5 s). */
export function seededStore(updatedAtMs = T0): SnapshotStore {
  const store = new SnapshotStore();
  for (const [name, value] of Object.entries(views(iso(updatedAtMs)))) {
    const cadenceMs = (value as { cadenceMs?: number }).cadenceMs ?? 1000;
    store.put(name, Buffer.from(JSON.stringify(value)), { version: 1, updatedAtMs, cadenceMs });
  }
  return store;
}
