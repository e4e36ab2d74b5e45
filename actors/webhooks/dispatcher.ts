// Concurrency for deliveries: one lane per endpoint with its own in-flight bound, one bound
// overall. A lane full of slow attempts only blocks itself; the others keep sending.
//
//   lane(endpoint) = { inFlight <= perEndpointMax, busy tokens, nextDueMs }
//   busy = attempts on the wire + attempts whose result is being written (still in the due
//   index until that write commits, so they are skipped when the index is read again).
import type { DueEntry, OutboxTables } from '../../persistence/outbox.js';
import { dueEntries } from '../../persistence/outbox.js';
import { deliveryToken } from './dead-letter.js';

interface Lane {
  inFlight: number;
  readonly busy: Set<string>;
  /** Earliest due time not yet started; -Infinity: unknown, read the index. */
  nextDueMs: number;
}

export type LaunchFn = (endpointId: string, entry: DueEntry) => void;

export class Dispatcher {
  private readonly lanes = new Map<string, Lane>();
  /** Lanes that had due work when the overall bound was reached, served first on release. */
  private readonly waitingForTotal = new Set<string>();
  inFlightTotal = 0;
  /** While paused (before start, while stopping) nothing is launched. */
  paused = true;

  constructor(
    private readonly outbox: OutboxTables,
    private readonly perEndpointMax: number,
    private readonly totalMax: number,
    private readonly launch: LaunchFn,
  ) {
    if (!(perEndpointMax >= 1 && totalMax >= perEndpointMax)) {
      throw new RangeError(`in-flight bounds must satisfy 1 <= per endpoint <= overall ` +
        `(was ${perEndpointMax} and ${totalMax})`);
    }
  }

  /** Keeps one lane per known endpoint; lanes of removed endpoints go once idle. */
  syncEndpoints(ids: Iterable<string>): void {
    const keep = new Set(ids);
    for (const id of keep) if (!this.lanes.has(id)) this.lanes.set(id, newLane());
    for (const [id, lane] of this.lanes) {
      if (!keep.has(id) && lane.busy.size === 0) this.lanes.delete(id);
    }
  }

  /** Something may be due on this lane at dueMs (a publish, a replay, a rescheduled retry). */
  markDue(endpointId: string, dueMs: number): void {
    const lane = this.lanes.get(endpointId);
    if (lane) lane.nextDueMs = Math.min(lane.nextDueMs, dueMs);
  }

  markAllUnknown(): void {
    for (const lane of this.lanes.values()) lane.nextDueMs = -Infinity;
  }

  busyTokens(endpointId: string): ReadonlySet<string> {
    return this.lanes.get(endpointId)?.busy ?? new Set();
  }

  get settlingCount(): number {
    let busy = 0;
    for (const lane of this.lanes.values()) busy += lane.busy.size;
    return busy - this.inFlightTotal;
  }

  /** Starts due work on every lane that has some (the periodic tick). */
  pumpAll(nowMs: number, isActive: (endpointId: string) => boolean): void {
    for (const id of this.lanes.keys()) {
      if (this.inFlightTotal >= this.totalMax) break;
      this.pumpLane(id, nowMs, isActive);
    }
  }

  pumpLane(endpointId: string, nowMs: number, isActive: (endpointId: string) => boolean): void {
    const lane = this.lanes.get(endpointId);
    if (this.paused || !lane || lane.nextDueMs > nowMs) return;
    if (lane.inFlight >= this.perEndpointMax) return;
    if (!isActive(endpointId)) {
      lane.nextDueMs = Infinity;
      return;
    }
    const limit = this.perEndpointMax + lane.busy.size + 1;
    const entries = dueEntries(this.outbox, endpointId, limit);
    lane.nextDueMs = entries.length === limit ? -Infinity : Infinity;
    for (const entry of entries) {
      const token = deliveryToken(entry.key);
      if (lane.busy.has(token)) continue;
      if (entry.dueAtMs > nowMs) {
        lane.nextDueMs = entry.dueAtMs;
        return;
      }
      if (lane.inFlight >= this.perEndpointMax || this.inFlightTotal >= this.totalMax) {
        lane.nextDueMs = entry.dueAtMs;
        if (this.inFlightTotal >= this.totalMax) this.waitingForTotal.add(endpointId);
        return;
      }
      lane.inFlight += 1;
      this.inFlightTotal += 1;
      lane.busy.add(token);
      this.launch(endpointId, entry);
    }
  }

  /** The attempt is off the wire: its slot is free (its token stays busy until settled). */
  release(endpointId: string, nowMs: number, isActive: (endpointId: string) => boolean): void {
    const lane = this.lanes.get(endpointId);
    if (!lane || lane.inFlight <= 0) throw new Error(`release without an attempt on ${endpointId}`);
    lane.inFlight -= 1;
    this.inFlightTotal -= 1;
    this.pumpLane(endpointId, nowMs, isActive);
    for (const id of this.waitingForTotal) {
      if (this.inFlightTotal >= this.totalMax) break;
      this.waitingForTotal.delete(id);
      this.pumpLane(id, nowMs, isActive);
    }
  }

  /** The attempt's result is written; nextDueMs: when the delivery is due again, or null. */
  settled(endpointId: string, entryKey: DueEntry['key'], nextDueMs: number | null): void {
    const lane = this.lanes.get(endpointId);
    if (!lane) return;
    lane.busy.delete(deliveryToken(entryKey));
    if (nextDueMs !== null) this.markDue(endpointId, nextDueMs);
  }
}

function newLane(): Lane {
  return { inFlight: 0, busy: new Set(), nextDueMs: -Infinity };
}
