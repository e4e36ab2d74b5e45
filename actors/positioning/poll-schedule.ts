// Which tracked wallets to poll next: those due, never-polled first, then by relevance weighted
// by lateness; the top `max` are picked without sorting the whole set.
import type { WalletStats } from './wallet-stats.js';

interface Candidate {
  readonly wallet: WalletStats;
  readonly fresh: boolean;
  readonly priority: number;
}

/** True when a should be polled before b. */
function before(a: Candidate, b: Candidate): boolean {
  if (a.fresh !== b.fresh) return a.fresh;
  if (a.priority !== b.priority) return a.priority > b.priority;
  return a.wallet.address < b.wallet.address;
}

/**
 * Up to `max` due wallets (nextPollMs <= nowMs), most urgent first. Priority is the wallet's
 * score (relevance, up to a factor common to all) times 1 + overdue / interval, so less relevant
 * wallets still get their turn when the budget is tight.
 */
export function selectDue(wallets: Iterable<WalletStats>, nowMs: number, max: number,
  pollIntervalMs: number): WalletStats[] {
  if (max <= 0) return [];
  // Kept sorted, most urgent first, never longer than max: O(n * max) worst case, and a
  // candidate worse than the current last costs one comparison.
  const chosen: Candidate[] = [];
  for (const wallet of wallets) {
    if (wallet.nextPollMs > nowMs) continue;
    const overdueMs = Number.isFinite(wallet.nextPollMs) ? nowMs - wallet.nextPollMs : 0;
    const candidate = {
      wallet, fresh: wallet.state === null,
      priority: wallet.score * (1 + overdueMs / pollIntervalMs),
    };
    if (chosen.length === max && !before(candidate, chosen[max - 1])) continue;
    let i = Math.min(chosen.length, max - 1);
    if (chosen.length === max) chosen.pop();
    while (i > 0 && before(candidate, chosen[i - 1])) i--;
    chosen.splice(i, 0, candidate);
  }
  return chosen.map((c) => c.wallet);
}
