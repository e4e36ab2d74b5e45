// One simulated world per seed: the market catalogue and wallet population, built once per
// thread and shared by the pair feeds and the universe feed of that thread.
import type { SimMarket } from './catalogue.js';
import { buildCatalogue } from './catalogue.js';
import { WalletPicker } from './wallet-picker.js';
import { buildWallets, type SimWallet } from './wallets.js';

export interface SimWorld {
  readonly seed: number;
  readonly markets: readonly SimMarket[];
  readonly bySymbol: ReadonlyMap<string, SimMarket>;
  readonly wallets: readonly SimWallet[];
  readonly picker: WalletPicker;
  /** The most liquid listed markets, where simulated wallets hold their positions. */
  readonly liquid: readonly SimMarket[];
}

// Worlds are immutable and cheap to keep; a thread rarely sees more than one or two seeds.
const worlds = new Map<number, SimWorld>();
const WORLDS_MAX = 8;

export function simWorld(seed: number): SimWorld {
  const cached = worlds.get(seed);
  if (cached) return cached;
  const markets = buildCatalogue(seed);
  const wallets = buildWallets(seed);
  const liquid = markets.filter((m) => !m.isDelisted && m.dex === '')
    .sort((a, b) => b.baseVolumeUsd - a.baseVolumeUsd).slice(0, 40);
  const world: SimWorld = { seed, markets, bySymbol: new Map(markets.map((m) => [m.symbol, m])),
    wallets, picker: new WalletPicker(wallets), liquid };
  if (worlds.size >= WORLDS_MAX) worlds.delete(worlds.keys().next().value as number);
  worlds.set(seed, world);
  return world;
}
