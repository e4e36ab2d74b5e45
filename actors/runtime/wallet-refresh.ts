// One rebuild of the wallet views (smart money, wallets, each wallet, each tracked pair's
// smart-money split and liquidation map) as a generator that yields after every small unit of
// work, so that runSliced can spread 10,000 wallets over many short event-loop turns.
import type { AssetCtx, MarketMeta } from '../messages.js';
import { viewName } from '../topics.js';
import { buildLiquidationMap } from '../positioning/liquidation-map.js';
import {
  addSmartMoneyPositions, buildPairPositioning, compareWalletViews, defaultSmartMoneyOptions,
  keepTopPositions,
} from '../positioning/views.js';
import type { WalletFragment, WalletFragments } from '../positioning/wallet-fragments.js';
import type { WalletTracker } from '../positioning/wallet-tracker.js';
import type { WalletRecord, WhalePosition } from '../positioning/types.js';
import { isoMs } from '../views/encode.js';

export type Market = MarketMeta & { ctx: AssetCtx };

/** Where a refresh writes; `put` takes a body object or its JSON already made. */
export interface WalletRefreshTarget {
  readonly tracker: WalletTracker;
  readonly fragments: WalletFragments;
  /** State time of each wallet's published view: a wallet's view is re-put when it changes. */
  readonly publishedStateTs: Map<string, number>;
  readonly smartMoney: Map<string, string>;
  readonly cadenceMs: number;
  put(name: string, body: object, updatedAtMs: number): void;
  putBytes(name: string, bytes: Uint8Array, data: unknown, updatedAtMs: number): void;
  delete(name: string): void;
}

/** Liquidation bands: 0.5 % wide, 40 each side of the mark (covers +-20 %). */
const liquidationBands = Object.freeze({ bandWidthPct: 0.5, bandsEachSide: 40 });
/** Wallets per unit when the wallets view is sorted and assembled (~0.3 MB of JSON). */
const joinChunkItems = 500;

/** `{...view, updatedAt, cadenceMs}` from the view's JSON: the bytes encodeFeedView makes. */
export function withFreshness(json: string, updatedAtMs: number, cadenceMs: number): string {
  return `${json.slice(0, -1)},"updatedAt":"${isoMs(updatedAtMs)}","cadenceMs":${cadenceMs}}`;
}

export function* refreshWalletViews(t: WalletRefreshTarget, nowMs: number,
  markets: readonly Market[], tracked: readonly string[]): Generator<void> {
  const addresses = t.tracker.addresses();
  yield;
  const bySymbol = new Map<string, WalletRecord[]>();
  const items: WalletFragment[] = [];
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
    const fragment = t.fragments.fragmentOf(record);
    if (fragment !== null) {
      items.push(fragment);
      putWallet(t, record, fragment, nowMs);
    }
    yield;
  }
  t.put('smart-money', { wallets: fresh, positions: keepTopPositions(positions, max) }, nowMs);
  yield;
  yield* putWalletsView(t, items, nowMs);
  yield* putPairViews(t, bySymbol, markets, tracked, nowMs);
  forgetUntracked(t, new Set(addresses));
}

function putWallet(t: WalletRefreshTarget, record: WalletRecord, fragment: WalletFragment,
  nowMs: number): void {
  const stateTs = record.state?.tsMs ?? 0;
  if (t.publishedStateTs.get(record.address) === stateTs) return;
  t.publishedStateTs.set(record.address, stateTs);
  const bytes = Buffer.from(withFreshness(fragment.json, nowMs, t.cadenceMs));
  t.putBytes(viewName('wallets', record.address), bytes, fragment.view, nowMs);
}

/** The wallets view, `{"wallets":[...],"count":N}`, from the wallets' JSON in slices. */
function* putWalletsView(t: WalletRefreshTarget, items: WalletFragment[], nowMs: number):
  Generator<void> {
  yield* sortInRuns(items);
  const chunks: Buffer[] = [Buffer.from('{"wallets":[')];
  for (let i = 0; i < items.length; i += joinChunkItems) {
    const part = items.slice(i, i + joinChunkItems).map((item) => item.json).join(',');
    chunks.push(Buffer.from(i === 0 ? part : ',' + part));
    yield;
  }
  chunks.push(Buffer.from(`],"count":${items.length},"updatedAt":"${isoMs(nowMs)}",` +
    `"cadenceMs":${t.cadenceMs}}`));
  const body = Buffer.concat(chunks);
  yield;
  // The store hashes the whole body for its ETag (~7 MB with 10,000 wallets): a unit of its own.
  t.putBytes('wallets', body, { wallets: items.map((item) => item.view), count: items.length },
    nowMs);
  yield;
}

/**
 * Sorts in place in slices: runs of `joinChunkItems` sorted one per unit, then one sort of the
 * whole, which V8's TimSort does as a merge of those runs (~n log(runs) comparisons, not n log n).
 */
function* sortInRuns(items: WalletFragment[]): Generator<void> {
  const compare = (a: WalletFragment, b: WalletFragment) => compareWalletViews(a.view, b.view);
  for (let i = 0; i < items.length; i += joinChunkItems) {
    const run = items.slice(i, i + joinChunkItems).sort(compare);
    for (let j = 0; j < run.length; j++) items[i + j] = run[j];
    yield;
  }
  items.sort(compare);
  yield;
}

/** Each tracked pair's smart-money split (for its deep view) and liquidation map. */
function* putPairViews(t: WalletRefreshTarget, bySymbol: ReadonlyMap<string, WalletRecord[]>,
  markets: readonly Market[], tracked: readonly string[], nowMs: number): Generator<void> {
  const marketBySymbol = new Map(markets.map((m) => [m.symbol, m]));
  for (const symbol of tracked) {
    const holders = bySymbol.get(symbol) ?? [];
    const { smartMoney } = buildPairPositioning(symbol, holders, []);
    t.smartMoney.set(symbol, JSON.stringify(smartMoney));
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

/** Wallets that left the tracker lose their view: the snapshot store stays bounded by it. */
function forgetUntracked(t: WalletRefreshTarget, tracked: ReadonlySet<string>): void {
  t.fragments.retainOnly(tracked);
  for (const address of t.publishedStateTs.keys()) {
    if (tracked.has(address)) continue;
    t.publishedStateTs.delete(address);
    t.delete(viewName('wallets', address));
  }
}
