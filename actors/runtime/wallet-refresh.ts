// One rebuild of the wallet views (smart money, wallets, each wallet, each tracked pair's
// smart-money split and liquidation map) as a generator that yields after every small unit of
// work, so that runSliced can spread 10,000 wallets over many short event-loop turns.
import { stringifyRounded } from '../../core/json-numbers.js';
import type { AssetCtx, MarketMeta } from '../../core/messages.js';
import { viewName } from '../topics.js';
import { buildLiquidationMap } from '../positioning/liquidation-map.js';
import {
  addSmartMoneyPositions, buildPairPositioning, compareWalletRecords, defaultSmartMoneyOptions,
  keepTopPositions,
} from '../positioning/views.js';
import { ByteWriter } from '../positioning/byte-writer.js';
import { walletJson, type PublishedWallets } from '../positioning/published-wallets.js';
import type { WalletTracker } from '../positioning/wallet-tracker.js';
import type { WalletRecord, WhalePosition } from '../positioning/types.js';
import { isoMs } from '../views/encode.js';

export { withFreshness } from '../positioning/published-wallets.js';

export type Market = MarketMeta & { ctx: AssetCtx };

/** Where a refresh writes; `put` takes a body object or its JSON already made. */
export interface WalletRefreshTarget {
  readonly tracker: WalletTracker;
  /** Each wallet's own view, published again when its state changes, encoded on request. */
  readonly published: PublishedWallets;
  readonly smartMoney: Map<string, string>;
  readonly cadenceMs: number;
  put(name: string, body: object, updatedAtMs: number): void;
  putBytes(name: string, bytes: Uint8Array, data: unknown, updatedAtMs: number): void;
  /** Size of the last wallets view: the next one is written into a buffer about this big. */
  listBytesHint: number;
}

/** Liquidation bands: 0.5 % wide, 40 each side of the mark (covers +-20 %). */
const liquidationBands = Object.freeze({ bandWidthPct: 0.5, bandsEachSide: 40 });
/** Wallets per unit when the wallets view is sorted, and when they are encoded (~25 us each). */
const joinChunkItems = 500;
const encodeChunkItems = 16;

export function* refreshWalletViews(t: WalletRefreshTarget, nowMs: number,
  markets: readonly Market[], tracked: readonly string[]): Generator<void> {
  const addresses = t.tracker.addresses();
  yield;
  const bySymbol = new Map<string, WalletRecord[]>();
  const items: WalletRecord[] = [];
  const positions: WhalePosition[] = [];
  const max = defaultSmartMoneyOptions.positionsMax;
  // Once `max` positions are kept, smaller ones can never be listed: they are not even made.
  let o = defaultSmartMoneyOptions;
  let fresh = 0;
  for (const address of addresses) {
    const record = t.tracker.record(address, nowMs);
    if (record === null) continue; // evicted since the rebuild began
    if (addSmartMoneyPositions(record, nowMs, o, positions)) fresh++;
    if (positions.length > 4 * max) {
      keepTopPositions(positions, max);
      o = { ...o, notionalMinUsd: Math.max(o.notionalMinUsd, positions[max - 1].notional) };
    }
    groupPositions(record, bySymbol);
    if (record.state !== null) {
      items.push(record);
      t.published.publish(record, nowMs);
    }
    yield;
  }
  t.put('smart-money', { wallets: fresh, positions: keepTopPositions(positions, max) }, nowMs);
  yield;
  yield* putWalletsView(t, items, nowMs);
  yield* putPairViews(t, bySymbol, markets, tracked, nowMs);
  forgetUntracked(t, new Set(addresses));
}

/**
 * The wallets view, `{"wallets":[...],"count":N}`, each wallet encoded in sorted order straight
 * into one Buffer: nothing per wallet outlives its slice, and the body is not joined, copied
 * and concatenated (garbage the collector would promote while the slices run). Every wallet
 * with trades shows decayed flow, so its JSON changes on each refresh anyway.
 */
function* putWalletsView(t: WalletRefreshTarget, items: WalletRecord[], nowMs: number):
  Generator<void> {
  yield* sortInRuns(items);
  const out = new ByteWriter(t.listBytesHint > 0 ? t.listBytesHint * 1.05 : items.length * 1_024);
  out.write('{"wallets":[');
  for (let i = 0; i < items.length; i += encodeChunkItems) {
    for (let j = i; j < Math.min(i + encodeChunkItems, items.length); j++) {
      if (j > 0) out.write(',');
      out.write(walletJson(items[j])!);
    }
    yield;
  }
  out.write(`],"count":${items.length},"updatedAt":"${isoMs(nowMs)}",` +
    `"cadenceMs":${t.cadenceMs}}`);
  const body = out.finish();
  t.listBytesHint = body.byteLength;
  yield;
  // The store hashes the whole body for its ETag (megabytes with many wallets): a unit of its
  // own. No `data`: nothing derives variants from this view, and 10,000 view objects would be
  // live heap (the front parses the body if a variant is ever needed).
  t.putBytes('wallets', body, undefined, nowMs);
  yield;
}

/**
 * Sorts in place in slices: runs of `joinChunkItems` sorted one per unit, then one sort of the
 * whole, which V8's TimSort does as a merge of those runs (~n log(runs) comparisons, not n log n).
 */
function* sortInRuns(items: WalletRecord[]): Generator<void> {
  for (let i = 0; i < items.length; i += joinChunkItems) {
    const run = items.slice(i, i + joinChunkItems).sort(compareWalletRecords);
    for (let j = 0; j < run.length; j++) items[i + j] = run[j];
    yield;
  }
  items.sort(compareWalletRecords);
  yield;
}

/** Each tracked pair's smart-money split (for its deep view) and liquidation map. */
function* putPairViews(t: WalletRefreshTarget, bySymbol: ReadonlyMap<string, WalletRecord[]>,
  markets: readonly Market[], tracked: readonly string[], nowMs: number): Generator<void> {
  const marketBySymbol = new Map(markets.map((m) => [m.symbol, m]));
  for (const symbol of tracked) {
    const holders = bySymbol.get(symbol) ?? [];
    const { smartMoney } = buildPairPositioning(symbol, holders, []);
    t.smartMoney.set(symbol, stringifyRounded(smartMoney));
    yield; // the most held pairs have thousands of holders: two units each
    const market = marketBySymbol.get(symbol);
    if (market && market.ctx.markPx > 0) {
      const states = holders.flatMap((r) => (r.state ? [r.state] : []));
      const map = buildLiquidationMap(symbol, market.ctx.markPx, states,
        market.ctx.openInterest * market.ctx.markPx, liquidationBands);
      t.put(viewName('liquidation-map', symbol), map, nowMs);
    }
    yield;
  }
}

/** Holders per symbol, in address order (the order the sums were always made in). */
function groupPositions(record: WalletRecord, out: Map<string, WalletRecord[]>): void {
  for (const p of record.state?.positions ?? []) {
    const list = out.get(p.symbol);
    if (list) {
      if (list[list.length - 1] !== record) list.push(record);
    } else out.set(p.symbol, [record]);
  }
}

/** Wallets that left the tracker lose their view: the published set stays bounded by it. */
function forgetUntracked(t: WalletRefreshTarget, tracked: ReadonlySet<string>): void {
  t.published.retainOnly(tracked);
}
