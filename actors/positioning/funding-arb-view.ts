// The funding-arbitrage view's inputs and build: the newest funding of each listed symbol on the
// venues that list it, made into the view's bytes in small steps. Built in the views worker by
// the service (actors/views-worker/worker.ts); PositioningViews builds it in process.
import type { FundingEvent, VenueFunding } from '../../core/messages.js';
import { encodeFeedViewSteps } from '../views/encode.js';
import { buildFundingArbSteps, type FundingArbItem, type FundingArbMarket } from './funding-arb.js';

/** Funding rows kept: one per listed symbol. */
const fundingRowsMax = 4_000;
/** Funding rows turned into arbitrage items per step (a few microseconds each). */
const fundingRowsPerStep = 64;

export interface FundingArbBuild {
  readonly bytes: Uint8Array;
  readonly body: { pairs: FundingArbItem[] };
  /** The newest funding time folded in (the view's updatedAt). */
  readonly atMs: number;
}

export class FundingArbView {
  private readonly funding = new Map<string, FundingEvent>();
  private fundingAtMs = 0;

  constructor(private readonly cadenceMs: number) {}

  /** Keeps the symbol's newest funding; false for a new symbol past the bound (dropped). */
  apply(event: FundingEvent): boolean {
    if (!this.funding.has(event.symbol) && this.funding.size >= fundingRowsMax) return false;
    this.funding.set(event.symbol, event);
    this.fundingAtMs = Math.max(this.fundingAtMs, event.tsMs);
    return true;
  }

  /** The funding kept, one event per symbol (what a restarted builder is sent). */
  events(): FundingEvent[] {
    return [...this.funding.values()];
  }

  /**
   * The view in steps: with every listed symbol it is milliseconds to build and encode, too
   * long for one callback on a thread that serves. `markets` (the screener rows) give each pair
   * its open interest and volume.
   */
  *buildSteps(markets: readonly FundingArbMarket[] = []): Generator<void, FundingArbBuild> {
    const rows: { symbol: string; venues: readonly VenueFunding[] }[] = [];
    for (const [symbol, event] of this.funding) rows.push({ symbol, venues: event.venues });
    const atMs = this.fundingAtMs;
    yield;
    const body = yield* buildFundingArbSteps(rows, fundingRowsPerStep, markets);
    const bytes = yield* encodeFeedViewSteps(body, 'pairs', atMs, this.cadenceMs);
    return { bytes, body, atMs };
  }
}
