// One simulated world per seed: the market catalogue and wallet population, built once per
// thread and shared by the pair feeds and the universe feed of that thread.
import type { SimMarket } from './catalogue.js';
import { INFORMED_SHARE_DEFAULT } from '../../../core/config.js';
import { buildCatalogue } from './catalogue.js';
import { REFERENCE_INSTANT_MS } from './fundamental.js';
import { WalletPicker } from './wallet-picker.js';
import {
  buildWallets, populationFor, WALLETS_TRACKED_DEFAULT, type SimWallet,
} from './wallets.js';

export interface SimWorld {
  readonly seed: number;
  /** Share of news that reaches prices only through informed flow (`--informed`). */
  readonly informedShare: number;
  /** Where the world's price paths start from their references (fundamental.ts). */
  readonly anchorMs: number;
  readonly markets: readonly SimMarket[];
  readonly bySymbol: ReadonlyMap<string, SimMarket>;
  readonly wallets: readonly SimWallet[];
  readonly picker: WalletPicker;
  /** The most liquid listed markets, where simulated wallets hold their positions. */
  readonly liquid: readonly SimMarket[];
}

// Worlds are immutable and cheap to keep; a thread rarely sees more than one or two seeds.
// Keyed by seed, population size, informed share and anchor: any changed is another world.
const worlds = new Map<string, SimWorld>();
const WORLDS_MAX = 8;

/**
 * The world of a seed whose universe feed reports `walletsTracked` wallets: every thread that
 * simulates the feed must pass the same count (it travels in the FeedSpec), so trades in the
 * shards and wallet states on the main thread name one population.
 */
export function simWorld(seed: number, walletsTracked = WALLETS_TRACKED_DEFAULT,
  informedShare = INFORMED_SHARE_DEFAULT, anchorMs = REFERENCE_INSTANT_MS): SimWorld {
  const population = populationFor(walletsTracked);
  const key = `${seed}:${population}:${informedShare}:${anchorMs}`;
  const cached = worlds.get(key);
  if (cached) return cached;
  const markets = buildCatalogue(seed, informedShare, anchorMs);
  const wallets = buildWallets(seed, population);
  const liquid = markets.filter((m) => !m.isDelisted && m.dex === '')
    .sort((a, b) => b.baseVolumeUsd - a.baseVolumeUsd).slice(0, 40);
  const world: SimWorld = { seed, informedShare, anchorMs, markets,
    bySymbol: new Map(markets.map((m) => [m.symbol, m])), wallets,
    picker: new WalletPicker(wallets), liquid };
  if (worlds.size >= WORLDS_MAX) worlds.delete(worlds.keys().next().value as string);
  worlds.set(key, world);
  return world;
}
