// Freshness from outside: injects trades stamped with the wall clock into the venue stub and
// polls HTTP views until one serves a snapshot whose asOf reaches each trade's stamp. The time
// from send to that response is one sample (an upper bound: it includes one poll round trip).
import { TDigest } from 'tdigest';
import { getText } from './http-get.js';
import type { VenueStub } from './venue-stub.js';

export interface ProbeTarget {
  readonly name: string;
  readonly path: string;
}

export interface Percentiles {
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
}

export interface ProbeSnapshot {
  readonly freshness: Readonly<Record<string, Percentiles>>;
  readonly roundTrip: Readonly<Record<string, Percentiles>>;
  /** Trades dropped from a full pending list (never expected: a sign of a stuck view). */
  readonly droppedPending: number;
}

export interface FreshnessProbe {
  /** Resolves once every target has served at least one injected trade. */
  warmedUp(timeoutMs: number): Promise<void>;
  /** Starts a new measurement phase (digests emptied; pending trades kept). */
  reset(): void;
  snapshot(): ProbeSnapshot;
  stop(): Promise<void>;
}

export interface ProbeOptions {
  readonly venue: VenueStub;
  readonly coin: string;
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly targets: readonly ProbeTarget[];
  /** Trades are sent at random gaps in [gapMsMin, gapMsMax], so they do not align to cadence. */
  readonly gapMsMin: number;
  readonly gapMsMax: number;
}

/** At 200 trades/s and a 1 s cadence a few hundred wait; past this the oldest are dropped. */
const pendingMax = 100_000;
const pollGapMs = 1;

function percentiles(digest: TDigest, samples: number): Percentiles {
  if (samples === 0) return { samples, p50Ms: NaN, p99Ms: NaN, p999Ms: NaN };
  return { samples, p50Ms: digest.percentile(0.5), p99Ms: digest.percentile(0.99),
    p999Ms: digest.percentile(0.999) };
}

interface Lane {
  readonly target: ProbeTarget;
  /** Send stamps not yet seen in this target's snapshots, oldest first. */
  pending: number[];
  seen: boolean;
  fresh: TDigest;
  freshCount: number;
  trip: TDigest;
  tripCount: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const asOfPattern = /"asOf":"([^"]+)"/;

/** One poll: the response's asOf settles every pending trade stamped at or before it. */
async function poll(lane: Lane, options: ProbeOptions, onDrop: () => void): Promise<void> {
  const startMs = Date.now();
  const { status, body } = await getText(options.baseUrl + lane.target.path, options.headers);
  const endMs = Date.now();
  if (status !== 200) return;
  lane.trip.push(endMs - startMs);
  lane.tripCount++;
  const asOfMs = Date.parse(asOfPattern.exec(body)?.[1] ?? '');
  if (!Number.isFinite(asOfMs)) throw new Error(`${lane.target.path} must carry asOf`);
  let settled = 0;
  while (settled < lane.pending.length && lane.pending[settled] <= asOfMs) {
    lane.fresh.push(endMs - lane.pending[settled]);
    lane.freshCount++;
    settled++;
  }
  if (settled > 0) {
    lane.pending = lane.pending.slice(settled);
    lane.seen = true;
  }
  if (lane.pending.length > pendingMax) {
    lane.pending.shift();
    onDrop();
  }
}

export function startFreshnessProbe(options: ProbeOptions): FreshnessProbe {
  const lanes: Lane[] = options.targets.map((target) => ({ target, pending: [], seen: false,
    fresh: new TDigest(), freshCount: 0, trip: new TDigest(), tripCount: 0 }));
  let running = true;
  let droppedPending = 0;
  let tradeId = 2_000_000_000;
  let failure: Error | null = null;
  const inject = async () => {
    while (running) {
      const side = Math.random() < 0.5 ? 1 : -1;
      const stamp = options.venue.sendTrade(options.coin, 100_000 + (tradeId % 100), side,
        tradeId++);
      if (stamp !== null) for (const lane of lanes) lane.pending.push(stamp);
      await sleep(options.gapMsMin + Math.random() * (options.gapMsMax - options.gapMsMin));
    }
  };
  const pollLoop = async (lane: Lane) => {
    while (running) {
      await poll(lane, options, () => { droppedPending++; }).catch((error: Error) => {
        failure = error;
      });
      await sleep(pollGapMs);
    }
  };
  const loops = [inject(), ...lanes.map(pollLoop)];
  return {
    async warmedUp(timeoutMs) {
      const deadlineMs = Date.now() + timeoutMs;
      while (!lanes.every((lane) => lane.seen)) {
        if (failure) throw failure;
        if (Date.now() > deadlineMs) {
          const missing = lanes.filter((l) => !l.seen).map((l) => l.target.path).join(', ');
          throw new Error(`no injected trade reached ${missing} within ${timeoutMs} ms`);
        }
        await sleep(20);
      }
    },
    reset() {
      for (const lane of lanes) {
        lane.fresh = new TDigest();
        lane.freshCount = 0;
        lane.trip = new TDigest();
        lane.tripCount = 0;
      }
    },
    snapshot() {
      if (failure) throw failure;
      const freshness: Record<string, Percentiles> = {};
      const roundTrip: Record<string, Percentiles> = {};
      for (const lane of lanes) {
        freshness[lane.target.name] = percentiles(lane.fresh, lane.freshCount);
        roundTrip[lane.target.name] = percentiles(lane.trip, lane.tripCount);
      }
      return { freshness, roundTrip, droppedPending };
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
