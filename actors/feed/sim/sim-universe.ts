// The simulated venue's slow side: the listed universe with contexts, funding on five venues
// and tracked wallets' states, at given market instants. Pure: same seed and time, same events.
import type {
  FundingEvent, UniverseEvent, WalletStateEvent,
} from '../../../core/messages.js';
import { assetCtxAt, venueFundingAt } from './market-model.js';
import type { SimWorld } from './sim-world.js';
import { trackedWallets, walletStateAt } from './wallets.js';

export function simUniverseAt(world: SimWorld, tMs: number): UniverseEvent {
  return {
    type: 'universe', tsMs: tMs,
    markets: world.markets.map((m) => ({
      symbol: m.symbol, dex: m.dex, szDecimals: m.szDecimals, maxLeverage: m.maxLeverage,
      isDelisted: m.isDelisted, onlyIsolated: m.onlyIsolated,
      ctx: assetCtxAt(world.seed, m, tMs),
    })),
  };
}

/** One funding event per listed (non-delisted) market. */
export function simFundingAt(world: SimWorld, tMs: number): FundingEvent[] {
  const out: FundingEvent[] = [];
  for (const m of world.markets) {
    if (m.isDelisted) continue;
    out.push({ type: 'funding', tsMs: tMs, symbol: m.symbol,
      venues: venueFundingAt(world.seed, m, tMs) });
  }
  return out;
}

export function simWalletsAt(world: SimWorld, tMs: number, max = 300): WalletStateEvent[] {
  return trackedWallets(world.wallets, max).map((w) =>
    walletStateAt(world.seed, w, world.liquid, tMs));
}
