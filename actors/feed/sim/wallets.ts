// The simulated wallet population: addresses, categories, leverage, and positions that are a pure
// function of (seed, wallet, time), so trades in shards and wallet states on the main thread
// name the same wallets.
import type { WalletCategory, WalletPosition, WalletStateEvent } from '../../../core/messages.js';
import type { SimMarket } from './catalogue.js';
import { referencePx } from './market-model.js';
import { Rng, hashUnit, hashString } from './rng.js';

export interface SimWallet {
  readonly address: string;
  readonly category: WalletCategory;
  readonly stream: number;
  /** Typical position notional in USD. */
  readonly notionalUsd: number;
  readonly leverageMin: number;
  readonly leverageMax: number;
}

// Share of the population, notional scale and leverage range per category.
const PROFILES: readonly (readonly [WalletCategory, number, number, number, number])[] = [
  ['market_maker', 0.01, 2e6, 2, 5], ['fund', 0.02, 5e6, 1, 4],
  ['smart_money', 0.06, 8e5, 3, 10], ['directional_whale', 0.04, 4e6, 2, 15],
  ['insider', 0.01, 1.5e6, 3, 10], ['degen', 0.86, 2e4, 10, 50],
];

export const WALLETS_DEFAULT = 2_000;
/** Wallets whose states the simulator reports unless configured (config `simWallets`). */
export const WALLETS_TRACKED_DEFAULT = 300;
const EPOCH_MS = 6 * 3_600_000;

/**
 * The population that holds `tracked` reported wallets: the default 2,000 (so the default world
 * keeps its addresses), or exactly the tracked ones beyond that, so that every address a shard
 * names on a trade is a wallet whose state arrives and the tracker (bounded at the same 10,000)
 * never churns between traders and reported wallets.
 */
export function populationFor(tracked: number): number {
  return Math.max(WALLETS_DEFAULT, tracked);
}

/** Builds the population for a seed: same seed, same addresses, on every thread. */
export function buildWallets(seed: number, count = WALLETS_DEFAULT): SimWallet[] {
  const rng = new Rng(seed ^ 0x77a11e75);
  const wallets: SimWallet[] = [];
  const add = (profile: (typeof PROFILES)[number]) => {
    const [category, , notionalUsd, leverageMin, leverageMax] = profile;
    const address = rng.address();
    wallets.push({ address, category, stream: hashString(address),
      notionalUsd: notionalUsd * (0.3 + 1.4 * rng.next()), leverageMin, leverageMax });
  };
  for (const profile of PROFILES) {
    const n = Math.max(1, Math.round(count * profile[1]));
    for (let i = 0; i < n && wallets.length < count; i++) add(profile);
  }
  // Rounding the shares can leave a few short: the crowd (last profile) makes up the count.
  while (wallets.length < count) add(PROFILES[PROFILES.length - 1]);
  return wallets;
}

/** Wallets whose state the universe feed reports: every non-degen plus the largest degens. */
export function trackedWallets(wallets: readonly SimWallet[],
  max = WALLETS_TRACKED_DEFAULT): SimWallet[] {
  const big = wallets.filter((w) => w.category !== 'degen');
  const degens = wallets.filter((w) => w.category === 'degen')
    .sort((a, b) => b.notionalUsd - a.notionalUsd);
  return big.concat(degens).slice(0, max);
}

function positionOf(seed: number, wallet: SimWallet, market: SimMarket, slot: number,
  tMs: number): WalletPosition | null {
  const epoch = Math.floor((tMs + wallet.stream % EPOCH_MS) / EPOCH_MS);
  const u = hashUnit(seed, wallet.stream, epoch, slot);
  if (u < 0.2) return null; // flat this epoch
  const epochStartMs = epoch * EPOCH_MS - (wallet.stream % EPOCH_MS);
  const entryPx = referencePx(seed, market, epochStartMs);
  const markPx = referencePx(seed, market, tMs);
  // Smart wallets lean the way the price goes over their epoch; the rest are coin flips.
  const informed = wallet.category === 'smart_money' || wallet.category === 'insider';
  const ahead = referencePx(seed, market, epochStartMs + EPOCH_MS) > entryPx ? 1 : -1;
  const sign = informed && u < 0.75 ? ahead : hashUnit(seed, wallet.stream, epoch, slot + 50) <
    0.5 ? 1 : -1;
  const leverage = Math.round(wallet.leverageMin +
    (wallet.leverageMax - wallet.leverageMin) * hashUnit(seed, wallet.stream, slot, 9));
  const size = sign * (wallet.notionalUsd * (0.3 + u)) / entryPx;
  const positionValue = Math.abs(size) * markPx;
  const marginUsed = positionValue / leverage;
  // Isolated-style liquidation: the price where the margin is gone (less maintenance).
  const liquidationPx = entryPx * (1 - sign * (0.9 / leverage));
  return {
    symbol: market.symbol, size: Number(size.toFixed(market.szDecimals)) || size, entryPx,
    leverage, leverageType: wallet.category === 'degen' ? 'isolated' : 'cross', positionValue,
    unrealizedPnl: size * (markPx - entryPx), liquidationPx: liquidationPx > 0 ? liquidationPx :
      null, marginUsed,
  };
}

/** The wallet's account state at tMs over a set of liquid markets. */
export function walletStateAt(seed: number, wallet: SimWallet, liquid: readonly SimMarket[],
  tMs: number): WalletStateEvent {
  const slots = 1 + Math.floor(hashUnit(seed, wallet.stream, 1) * 5);
  const positions: WalletPosition[] = [];
  let margin = 0;
  let pnl = 0;
  for (let slot = 0; slot < slots && liquid.length > 0; slot++) {
    // Bigger wallets favour the most liquid markets.
    const pick = Math.floor(Math.pow(hashUnit(seed, wallet.stream, 2, slot), 2) * liquid.length);
    const market = liquid[pick];
    if (positions.some((p) => p.symbol === market.symbol)) continue;
    const position = positionOf(seed, wallet, market, slot, tMs);
    if (!position) continue;
    positions.push(position);
    margin += position.marginUsed;
    pnl += position.unrealizedPnl;
  }
  const accountValue = Math.max(0, margin * 1.6 + pnl + wallet.notionalUsd * 0.1);
  return { type: 'wallet', tsMs: tMs, address: wallet.address, accountValue, positions };
}
