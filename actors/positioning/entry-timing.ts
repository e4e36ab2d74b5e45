// Timing of large entries: each large buy or sell waits, per symbol, for the mark to move by a
// large amount in its favour (prescient) or for its horizon to pass (not prescient).

export interface EntryTimingOptions {
  /** A favourable move of at least this many percent within the horizon makes it prescient. */
  readonly largeMovePct: number;
  readonly horizonMs: number;
  /** Pending entries per symbol; when full the oldest is dropped unevaluated (and counted). */
  readonly pendingPerSymbolMax: number;
  /** Symbols with pending entries; an entry for a new symbol beyond it is dropped (counted). */
  readonly symbolsMax: number;
}

interface PendingEntry {
  readonly address: string;
  /** +1 the wallet bought, -1 it sold. */
  readonly side: 1 | -1;
  readonly price: number;
  readonly tsMs: number;
}

/** Called once per entry whose outcome became known. */
export type EntryOutcomeSink = (address: string, prescient: boolean) => void;

export class EntryTiming {
  private readonly pending = new Map<string, PendingEntry[]>();
  /** Entries dropped by the bounds before their outcome was known. */
  droppedCount = 0;

  constructor(private readonly options: EntryTimingOptions) {
    if (!(options.largeMovePct > 0) || !(options.horizonMs > 0)) {
      throw new RangeError('entry timing needs largeMovePct > 0 and horizonMs > 0');
    }
    if (!(options.pendingPerSymbolMax >= 1) || !(options.symbolsMax >= 1)) {
      throw new RangeError('entry timing bounds must be at least 1');
    }
  }

  addEntry(symbol: string, address: string, side: 1 | -1, price: number, tsMs: number): void {
    let list = this.pending.get(symbol);
    if (list === undefined) {
      if (this.pending.size >= this.options.symbolsMax) {
        this.droppedCount++;
        return;
      }
      list = [];
      this.pending.set(symbol, list);
    }
    if (list.length >= this.options.pendingPerSymbolMax) {
      list.shift();
      this.droppedCount++;
    }
    list.push({ address, side, price, tsMs });
  }

  /** Resolves the symbol's pending entries against a new mark; reports each known outcome. */
  observeMark(symbol: string, markPx: number, tsMs: number, sink: EntryOutcomeSink): void {
    const list = this.pending.get(symbol);
    if (list === undefined) return;
    let kept = 0;
    for (const entry of list) {
      // A mark from before the entry says nothing about what followed it.
      const movePct = tsMs >= entry.tsMs
        ? ((markPx - entry.price) / entry.price) * 100 * entry.side : 0;
      if (movePct >= this.options.largeMovePct) sink(entry.address, true);
      else if (tsMs - entry.tsMs >= this.options.horizonMs) sink(entry.address, false);
      else list[kept++] = entry;
    }
    list.length = kept;
    if (kept === 0) this.pending.delete(symbol);
  }

  pendingCount(): number {
    let total = 0;
    for (const list of this.pending.values()) total += list.length;
    return total;
  }
}
