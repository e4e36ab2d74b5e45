// Feed handlers: whole views (screener, signals, ...) and per-symbol views (pair, deep view,
// liquidation map) and per-wallet views, served from the snapshot store.
import type { Outcome } from '../access-types.js';
import { problems } from '../problems.js';
import type { Payload } from '../respond.js';
import type { Handler } from '../routes.js';
import type { SnapshotStore, ViewEntry } from '../snapshots.js';
import { parseAddress, parseSymbol, resolveListedSymbol } from '../symbols.js';
import { fail, feedPayload, ok } from './payloads.js';

/** A view with no path parameter; absent means the producer has not published it yet. */
export function viewHandler(snapshots: SnapshotStore, name: string): Handler {
  return () => {
    const entry = snapshots.get(name);
    return entry === undefined ? fail(problems.notReady(name)) : ok(feedPayload(entry));
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

export function symbolViewHandler(snapshots: SnapshotStore, view: string, what: string):
  Handler {
  return ({ segment }): Outcome<Payload> => {
    const found = lookupSymbolView(snapshots, view, segment, what);
    return found.ok ? ok(feedPayload(found.value.entry)) : found;
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
    return ok(feedPayload(entry));
  };
}
