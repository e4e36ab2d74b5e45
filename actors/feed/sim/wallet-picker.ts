// Picks the wallets named on simulated trades: informed flow comes from smart wallets, resting
// liquidity mostly from market makers, the rest from the crowd.
import type { Rng } from './rng.js';
import type { SimWallet } from './wallets.js';

export class WalletPicker {
  private readonly makers: string[];
  private readonly informed: string[];
  private readonly crowd: string[];
  private readonly everyone: string[];

  constructor(wallets: readonly SimWallet[]) {
    this.makers = wallets.filter((w) => w.category === 'market_maker').map((w) => w.address);
    this.informed = wallets.filter((w) => w.category === 'smart_money' ||
      w.category === 'insider' || w.category === 'directional_whale').map((w) => w.address);
    this.crowd = wallets.filter((w) => w.category === 'degen' || w.category === 'fund')
      .map((w) => w.address);
    this.everyone = wallets.map((w) => w.address);
    if (this.everyone.length === 0) throw new Error('WalletPicker needs at least one wallet');
  }

  /** The taker of a trade; informed flow during bursts. */
  taker(rng: Rng, informedFlow: boolean): string {
    if (informedFlow && this.informed.length > 0 && rng.next() < 0.6) {
      return this.informed[rng.int(this.informed.length)];
    }
    // Skewed towards a few hundred active addresses so wallets repeat.
    const pool = this.crowd.length > 0 ? this.crowd : this.everyone;
    return pool[Math.floor(Math.pow(rng.next(), 2.5) * pool.length)];
  }

  /** The resting side of a trade. */
  maker(rng: Rng): string {
    if (this.makers.length > 0 && rng.next() < 0.7) return this.makers[rng.int(this.makers.length)];
    return this.everyone[rng.int(this.everyone.length)];
  }
}
