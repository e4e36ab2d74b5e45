// Feed handlers: whole views (screener, signals, ...) and per-symbol views (pair, deep view,
// liquidation map) and per-wallet views, served from the snapshot store.
import type { Outcome } from '../access-types.js';
import { problems } from '../problems.js';
import type { Payload } from '../respond.js';
import type { Handler } from '../routes.js';
import type { SnapshotStore, ViewEntry } from '../snapshots.js';
import { parseAddress, parseSymbol, resolveListedSymbol } from '../symbols.js';
import { httpBounds } from '../bounds.js';
import { fail, feedOutcome } from './payloads.js';

/** A view with no path parameter; absent means the producer has not published it yet. */
export function viewHandler(snapshots: SnapshotStore, name: string): Handler {
  return () => {
    const entry = snapshots.get(name);
    return entry === undefined ? fail(problems.notReady(name)) : feedOutcome(entry);
  };
}

export type SymbolLookup = Outcome<{ readonly symbol: string; readonly entry: ViewEntry }>;

/**
 * The `<view>/<SYMBOL>` entry: 400 malformed, 404 unknown_symbol when the pair is not listed,
 * 404 not_tracked when it is listed but the view is computed for tracked pairs only.
 */
export function lookupSymbolView(snapshots: SnapshotStore, view: string, segment: string,
  what: string): SymbolLookup {
  const parsed = parseSymbol(segment);
  if (!parsed.ok) return parsed;
  const symbol = resolveListedSymbol(snapshots, parsed.symbol);
  if (symbol === undefined) return { ok: false, problem: problems.unknownSymbol(parsed.symbol) };
  const entry = snapshots.get(`${view}/${symbol}`);
  if (entry === undefined) return { ok: false, problem: problems.notTracked(symbol, what) };
  return { ok: true, value: { symbol, entry } };
}

/**
 * Serves `<view>/<SYMBOL>`. A segment that named a listed symbol as it is (no decoding, no case
 * folding) keeps its two store names, so a poll of it concatenates nothing: the same two
 * lookups as lookupSymbolView, which answers everything else (and every miss).
 */
export function symbolViewHandler(snapshots: SnapshotStore, view: string, what: string):
  Handler {
  const names = new Map<string, readonly [listed: string, entry: string]>();
  return ({ segment }): Outcome<Payload> => {
    const known = names.get(segment);
    if (known !== undefined && snapshots.get(known[0]) !== undefined) {
      const entry = snapshots.get(known[1]);
      if (entry !== undefined) return feedOutcome(entry);
    }
    const found = lookupSymbolView(snapshots, view, segment, what);
    if (!found.ok) return found;
    if (known === undefined && found.value.symbol === segment) {
      if (names.size >= httpBounds.pathMemoMax) names.clear();
      names.set(segment, [`pair/${segment}`, `${view}/${segment}`]);
    }
    return feedOutcome(found.value.entry);
  };
}

export function walletHandler(snapshots: SnapshotStore): Handler {
  return ({ segment }) => {
    const parsed = parseAddress(segment);
    if (!parsed.ok) return parsed;
    const entry = snapshots.get('wallets/' + parsed.address);
    if (entry === undefined) {
      return fail(problems.notFound(
        `address must be a tracked wallet (${parsed.address} was not one)`));
    }
    return feedOutcome(entry);
  };
}
