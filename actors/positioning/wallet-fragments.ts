// Each tracked wallet's view and its JSON, kept between refreshes and rebuilt only when something
// the view shows changed: with 10,000 wallets, encoding every view on every refresh was most of
// the refresh's cost, and most wallets show the same thing as last time.
import type { WalletMetrics, WalletRecord, WalletView } from './types.js';
import { buildWalletView } from './views.js';

export interface WalletFragment {
  readonly view: WalletView;
  /** JSON.stringify(view): the wallet's item in the wallets view, and its own view's body. */
  readonly json: string;
}

interface Entry {
  readonly record: WalletRecord;
  readonly fragment: WalletFragment;
}

const metricKeys = (m: WalletMetrics) => Object.keys(m) as (keyof WalletMetrics)[];

/** True when both records give the same view (buildWalletView reads exactly these fields). */
function sameView(a: WalletRecord, b: WalletRecord): boolean {
  if (a.state !== b.state || a.label !== b.label || a.category !== b.category ||
    a.categoryReason !== b.categoryReason) return false;
  for (const key of metricKeys(a.metrics)) if (a.metrics[key] !== b.metrics[key]) return false;
  return true;
}

export class WalletFragments {
  private readonly byAddress = new Map<string, Entry>();
  private encoded = 0;

  /** The wallet's view and JSON, re-encoded only when it changed; null before its first state. */
  fragmentOf(record: WalletRecord): WalletFragment | null {
    if (record.state === null) {
      this.byAddress.delete(record.address);
      return null;
    }
    const known = this.byAddress.get(record.address);
    if (known !== undefined && sameView(known.record, record)) return known.fragment;
    const view = buildWalletView(record)!;
    const fragment = { view, json: JSON.stringify(view) };
    this.byAddress.set(record.address, { record, fragment });
    this.encoded++;
    return fragment;
  }

  /** Forgets wallets that are no longer tracked (the cache is bounded by the tracker). */
  retainOnly(addresses: ReadonlySet<string>): void {
    for (const address of this.byAddress.keys()) {
      if (!addresses.has(address)) this.byAddress.delete(address);
    }
  }

  /** Views encoded so far (for the refresh's debug log and the tests). */
  get encodedCount(): number {
    return this.encoded;
  }

  get size(): number {
    return this.byAddress.size;
  }
}
