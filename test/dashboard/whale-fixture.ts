// Whale data for the dashboard's browser tests: BTC's deep view (as the shard's encoder lays it
// out), four hours of recorded minutes with OBI, OFI and Kyle's lambda, and tracked wallets put
// through the real smart-money and wallet view builders, into the front's snapshot store.
import { encodeFeedView } from '../../actors/views/encode.js';
import {
  buildSmartMoneyView, buildWalletsView, buildWalletView,
} from '../../actors/positioning/views.js';
import type { WalletMetrics, WalletRecord } from '../../actors/positioning/types.js';
import type { HistoryPoint } from '../../core/history-point.js';
import type { WalletCategory, WalletPosition } from '../../core/messages.js';
import type { SnapshotStore } from '../../http/snapshots.js';
import { openHistoryStore } from '../../persistence/history.js';
import type { Store } from '../../persistence/store.js';

const MINUTE_MS = 60_000;
export const HISTORY_MINUTES = 240;
export const FUND = '0x' + 'a1'.repeat(20);
export const DEGEN = '0x' + 'b2'.repeat(20);
/** A well-formed address no wallet has. */
export const UNTRACKED = '0x' + 'c3'.repeat(20);

/** The deep view's absorption events: inside the recorded four hours, so both are marked. */
export function absorptionOf(nowMs: number) {
  return [
    { time: iso(nowMs - 95 * MINUTE_MS), kind: 'sell_absorbed', notional: 2.4e6,
      buyNotional: 3e5, sellNotional: 2.1e6, moveBps: 1.5 },
    { time: iso(nowMs - 30 * MINUTE_MS), kind: 'buy_absorbed', notional: 1.8e6,
      buyNotional: 1.55e6, sellNotional: 2.5e5, moveBps: -0.8 },
  ];
}

const iso = (ms: number) => new Date(ms).toISOString();

function metrics(accountValue: number, positions: WalletPosition[], realizedPnl: number):
  WalletMetrics {
  const openNotional = positions.reduce((sum, p) => sum + Math.abs(p.positionValue), 0);
  return { accountValue, openNotional, effectiveLeverage: openNotional / accountValue,
    maxLeverage: Math.max(...positions.map((p) => p.leverage)), buyNotional: 4e6,
    sellNotional: 3e6, twoSidedness: 0.75, turnover: 7e6 / accountValue, tradeCount: 40,
    realizedPnl, entriesEvaluated: 5, entriesPrescient: 3 };
}

function position(symbol: string, size: number, entryPx: number, leverage: number,
  unrealizedPnl: number, liquidationPx: number | null): WalletPosition {
  const positionValue = Math.abs(size) * entryPx + unrealizedPnl * Math.sign(size);
  return { symbol, size, entryPx, leverage, leverageType: leverage > 10 ? 'isolated' : 'cross',
    positionValue, unrealizedPnl, liquidationPx, marginUsed: Math.abs(positionValue) / leverage };
}

function wallet(address: string, label: string | null, category: WalletCategory,
  accountValue: number, positions: WalletPosition[], nowMs: number): WalletRecord {
  return { address, label, category, categoryReason: `test rule for ${category}`,
    state: { type: 'wallet', tsMs: nowMs - 20_000, address, accountValue, positions },
    metrics: metrics(accountValue, positions, category === 'fund' ? 185_000 : -42_500),
    relevanceUsd: accountValue, firstSeenMs: nowMs - 86_400_000, lastActiveMs: nowMs };
}

export function walletsOf(nowMs: number): WalletRecord[] {
  return [
    wallet(FUND, 'Alameda-ish Fund', 'fund', 24_500_000, [
      position('BTC', 60, 63_100, 5, 68_900, 41_250.5),
      position('ETH', -900, 3_205.5, 3, 22_725, 5_020.25),
    ], nowMs),
    wallet(DEGEN, null, 'degen', 410_000, [
      position('BTC', -9.5, 64_900, 40, 6_170, 66_480),
      position('SOL', 5_000, 150.2, 25, -7_345, 144.9),
    ], nowMs),
  ];
}

function minute(symbol: string, i: number, tMs: number): HistoryPoint {
  const close = 64_000 + 300 * Math.sin(i / 23) + i * 1.5;
  return { symbol, tMs, open: close - 12, high: close + 25, low: close - 30, close,
    volume: 2e6 + i * 1e3, openInterest: 2.6e9, fundingRate: 0.0000125,
    fundingAnnualized: 10.95, cvd: 4e5 * Math.sin(i / 31), vpin: 0.3 + 0.1 * Math.sin(i / 40),
    obi: 0.6 * Math.sin(i / 19), ofi: 14 * Math.cos(i / 11), kyleLambda: 2.2 + Math.sin(i / 50),
    signalScore: 40, regime: 'trending' };
}

/** Puts the views into the snapshot store and four hours of BTC minutes into the history. */
export async function putWhaleFixture(snapshots: SnapshotStore, store: Store, nowMs: number):
  Promise<void> {
  const put = (name: string, body: unknown) => {
    const version = (snapshots.get(name)?.version ?? 0) + 1;
    snapshots.put(name, encodeFeedView(body as Record<string, unknown>, nowMs, 1_000),
      { version, updatedAtMs: nowMs, cadenceMs: 1_000, data: body });
  };
  const records = walletsOf(nowMs);
  put('smart-money', buildSmartMoneyView(records, nowMs));
  put('wallets', buildWalletsView(records));
  for (const record of records) put(`wallets/${record.address}`, buildWalletView(record));
  const lastMinuteMs = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
  const cvdHistory = Array.from({ length: 48 }, (_, i) => ({
    time: iso(lastMinuteMs - (47 - i) * 5 * MINUTE_MS), cvd: 1e6 * Math.sin(i / 9) + i * 2e4,
    delta: 1e4 }));
  put('deep-view/BTC', {
    symbol: 'BTC', price: 64_250.5, cvd: 2.4e6, cvdHistory, obi: 0.214, ofi: -12.75,
    vpin: 0.412, vpinLevel: 'elevated', kyleLambda: 2.731,
    whales: [
      { address: FUND, side: 'buy', notional: 3.2e6, price: 64_180, size: 49.86,
        time: iso(nowMs - 4 * MINUTE_MS) },
      { address: null, side: 'sell', notional: 1.1e6, price: 64_230.5, size: 17.13,
        time: iso(nowMs - 12 * MINUTE_MS) },
    ],
    absorption: absorptionOf(nowMs), regime: 'trending', signalScore: 62,
    signalDirection: 'LONG', basis: 'trades', stale: false, asOf: iso(nowMs),
    smartMoney: { long: { fund: 3.85e6 }, short: { degen: 6.1e5 }, net: 3.24e6 },
  });
  const history = openHistoryStore(store.root);
  history.add(Array.from({ length: HISTORY_MINUTES }, (_, i) =>
    minute('BTC', i, lastMinuteMs - (HISTORY_MINUTES - 1 - i) * MINUTE_MS)));
  await history.flush();
}
