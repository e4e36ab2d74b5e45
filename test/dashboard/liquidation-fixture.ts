// Views for the liquidation map and funding arb pages, put into the front's snapshot store the
// way the runtime puts them: a BTC liquidation map built by the service's own builder from
// wallets whose positions cluster at known prices, an ETH map with no position (the empty
// state), and a funding-arb list with open interest and volume on both sides of $1 M.
import type { WalletPosition, WalletStateEvent } from '../../core/messages.js';
import { buildLiquidationMap } from '../../actors/positioning/liquidation-map.js';
import { encodeFeedView } from '../../actors/views/encode.js';
import type { SnapshotStore } from '../../http/snapshots.js';

export const BTC_MARK = 64_000;

/** Long clusters below the mark and short clusters above: [liquidation price, size in BTC]. */
export const LONG_LEVELS = [[62_100, 14], [60_850, 41], [57_700, 9.5]] as const;
export const SHORT_LEVELS = [[65_500, 22], [67_150, 6.25], [70_300, 31]] as const;

function position(size: number, liquidationPx: number): WalletPosition {
  return { symbol: 'BTC', size, entryPx: BTC_MARK, leverage: 10, leverageType: 'cross',
    positionValue: Math.abs(size) * BTC_MARK, unrealizedPnl: 0, liquidationPx,
    marginUsed: Math.abs(size) * BTC_MARK / 10 };
}

function wallets(nowMs: number): WalletStateEvent[] {
  const levels = [...LONG_LEVELS.map(([px, size]) => position(size, px)),
    ...SHORT_LEVELS.map(([px, size]) => position(-size, px))];
  return levels.map((p, i) => ({ type: 'wallet', tsMs: nowMs,
    address: `0x${(i + 1).toString(16).padStart(40, '0')}`, accountValue: 5e6, positions: [p] }));
}

/** Funding-arb rows: [symbol, spread APR %, open interest USD | null, volume USD, tracked]. */
export const ARB_ROWS = [
  ['BLZ', 182.4, 94_000, 310_000, false],
  ['MEW', 96.1, 640_000, 2.4e6, false],
  ['NEWCO', 71.3, null, 150_000, false],
  ['SOL', 24.8, 3.3e8, 3.3e8, true],
  ['DOGE', 18.2, 1.5e8, 1.2e8, true],
  ['BTC', 9.6, 2.6e9, 2.1e9, true],
  ['ETH', 7.4, 9.9e8, 9.8e8, true],
  ['WIF', 4.1, 2.2e6, 800_000, false],
] as const;

export function putLiquidationFixture(snapshots: SnapshotStore, nowMs: number): void {
  const put = (name: string, body: object) => {
    const version = (snapshots.get(name)?.version ?? 0) + 1;
    snapshots.put(name, encodeFeedView(body as Record<string, unknown>, nowMs, 1_000),
      { version, updatedAtMs: nowMs, cadenceMs: 1_000, data: body });
  };
  const bands = { bandWidthPct: 0.5, bandsEachSide: 40 };
  put('liquidation-map/BTC', buildLiquidationMap('BTC', BTC_MARK, wallets(nowMs), 2.6e9, bands));
  for (const [symbol, mark] of [['ETH', 3_180.25], ['SOL', 148.731], ['DOGE', 0.16234]] as const) {
    put(`liquidation-map/${symbol}`, buildLiquidationMap(symbol, mark, [], 1e8, bands));
  }
  // Listed but not tracked: the service answers its map with not_tracked.
  put('pair/BLZ', { symbol: 'BLZ', price: 0.0412, change24h: 3.1, volume24h: 310_000,
    openInterest: 94_000, fundingRate: 0.00021, fundingAnnualized: 183.96, vpin: null,
    vpinLevel: null, signalScore: null, signalDirection: null, regime: null, basis: null,
    tracked: false, stale: false, asOf: null });
  put('funding-arb', { pairs: ARB_ROWS.map(([symbol, spreadAnnualized, openInterest,
    volume24h, tracked]) => ({ symbol, longVenue: 'exchange_b', shortVenue: 'home',
    spreadAnnualized, openInterest, volume24h, tracked })) });
}
