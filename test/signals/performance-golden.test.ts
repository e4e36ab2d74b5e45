// The track record's figures pinned: every window and grouping of a fixed, seeded set of
// signals hashes to the digest the straightforward implementation gave, so a faster way to the
// same answer cannot change one byte of it (bootstraps included); and the answers kept and
// brought up to date from store revisions equal those of a store read afresh.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../core/clock.js';
import { GRADES, type Grade } from '../../core/messages.js';
import type { SignalBaseline } from '../../actors/signals/baseline.js';
import { performanceReport } from '../../actors/signals/performance-report.js';
import {
  PERFORMANCE_GROUPS, PERFORMANCE_WINDOWS, WINDOW_MS, type TrackedSignal,
} from '../../actors/signals/track-record.js';
import type { EntrySignal, FirstLevelHit, SignalOutcome } from '../../actors/signals/types.js';
import { signalPerformanceAnswer } from '../../http/handlers/signal-history.js';
import { openHistoryStore } from '../../persistence/history.js';
import { openSignalStore, type SignalStore } from '../../persistence/signals.js';
import { openStore } from '../../persistence/store.js';
import { tempDir } from '../helpers/eventually.js';
import { seededRandom } from '../helpers/seeded-random.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const BAR = 300_000;
const NOW = Date.parse('2026-11-21T00:00:00.000Z');
const HITS: FirstLevelHit[] = ['t1', 'stop', 'none', 'both_same_bar'];
const GRADE_WEIGHTS = [0.01, 0.05, 0.14, 0.6, 0.2];
/**
 * sha256 of every window x grouping's report, from the implementation before the fast one;
 * renewed when the intervals came to resample 4-hour blocks of signals instead of single ones,
 * and when the information coefficient's interval did too (with Fisher's z put back in its
 * place, the reports still hash to the digest before).
 */
const GOLDEN = 'a9ab32af63feaa6b15ba639ed5ff48ebeb63d6896da3259bed57f1629aee49df';

function pick<T>(items: readonly T[], weights: readonly number[], u: number): T {
  let sum = 0;
  for (let i = 0; i < items.length; i++) {
    sum += weights[i];
    if (u < sum) return items[i];
  }
  return items[items.length - 1];
}

interface Drawn {
  readonly signal: EntrySignal;
  readonly signalMs: number;
  readonly outcome: SignalOutcome;
  readonly baseline: SignalBaseline | null;
}

/** The i-th signal of the set: varied plans, hits, baselines and trends, some risk of 0. */
function drawn(i: number, barMs: number, draw: () => number): Drawn {
  const side = draw() < 0.5 ? 'long' : 'short';
  const sign = side === 'long' ? 1 : -1;
  const symbol = `S${Math.floor(draw() * 30)}`;
  const risk = i % 97 === 0 ? 0 : 0.2 + draw() * 2;
  const rT1 = Math.round((1 + draw() * 2) * 100) / 100;
  const signal: EntrySignal = {
    signal_id: `${symbol}-5m-${barMs}-${side}-${i}`, symbol,
    timeframe: (['5m', '15m', '1h'] as const)[Math.floor(draw() * 3)], side,
    grade: pick(GRADES, GRADE_WEIGHTS, draw()) as Grade, score: Math.round(draw() * 200 - 100),
    bar_time: new Date(barMs).toISOString(),
    regime: (['trending', 'ranging', 'volatile'] as const)[i % 3], confirmed: true,
    flow_source: 'bar_delta',
    logics: { liquidity_grab: draw() < 0.6, flow_rejection: draw() < 0.3, absorption: draw() < 0.05,
      cvd_divergence: draw() < 0.2, structure_shift: false, level_confluence: draw() < 0.1 },
    plan: { entry: 100, stop: 100 - sign * risk, t1: 100 + sign * risk * rT1,
      t2: 100 + sign * risk * 2 * rT1, r_t1: rT1, r_t2: 2 * rT1 },
    price_at_signal: 100,
  };
  const signalMs = barMs + BAR;
  const hit = pick(HITS, [0.3, 0.45, 0.2, 0.05], draw());
  const move = draw() * 4 - 2;
  const outcome = {
    entry_event_id: '', signal_id: signal.signal_id, symbol, timeframe: signal.timeframe, side,
    grade: signal.grade, horizon: '4h', signaled_at: new Date(signalMs).toISOString(),
    evaluated_at: new Date(signalMs + 4 * HOUR).toISOString(), price_at_signal: 100,
    price_after: 100 + sign * move, move_pct: move, max_favorable_pct: Math.abs(move) + draw(),
    max_adverse_pct: -Math.abs(move) / 2 - draw(), first_level_hit: hit, t2_hit: false,
    complete: true, t2_touched_any: false, bars: 48,
  } as SignalOutcome;
  const mirror = pick(HITS, [0.3, 0.45, 0.2, 0.05], draw());
  const trend = draw();
  const baseline = i % 11 === 0 ? null : { mirror_first_level_hit: mirror,
    trend_side: trend < 0.25 ? null : trend < 0.6 ? 'long' : 'short' } as SignalBaseline;
  return { signal, signalMs, outcome, baseline };
}

/** `count` signals over 100 days before NOW; the last 4 h have no outcome yet. */
function fixedSet(count: number): Drawn[] {
  const draw = seededRandom(351);
  const out: Drawn[] = [];
  for (let i = 0; i < count; i++) {
    out.push(drawn(i, NOW - 100 * DAY + Math.floor((i / count) * 100 * DAY / BAR) * BAR, draw));
  }
  return out;
}

const sorted = (set: Drawn[]) => [...set].sort((a, b) => a.signalMs - b.signalMs ||
  (a.signal.signal_id < b.signal.signal_id ? -1 : 1));

test('every window and grouping of the fixed set gives the pinned figures', () => {
  const tracked: TrackedSignal[] = sorted(fixedSet(2_400)).map((d) => {
    const known = Date.parse(d.outcome.evaluated_at) <= NOW;
    return { signal: d.signal, signalMs: d.signalMs, outcome: known ? d.outcome : null,
      baseline: known ? d.baseline : null };
  });
  const hash = createHash('sha256');
  for (const window of PERFORMANCE_WINDOWS) {
    const toMs = NOW + 1;
    const fromMs = window === 'all' ? 0 : toMs - WINDOW_MS[window];
    for (const by of PERFORMANCE_GROUPS) {
      hash.update(JSON.stringify(performanceReport(tracked, fromMs, toMs, by)));
    }
  }
  assert.is(hash.digest('hex'), GOLDEN);
});

async function write(signals: SignalStore<EntrySignal>, d: Drawn, complete: boolean):
  Promise<void> {
  if (signals.get(d.signal.signal_id) === undefined) await signals.claim(d.signal, d.signalMs);
  if (!complete) return;
  await signals.scheduleOutcome(d.signal.signal_id, '', d.signalMs, d.signalMs + 4 * HOUR);
  await signals.completeOutcome(d.signal.signal_id,
    d.outcome as unknown as Record<string, unknown>,
    (d.baseline ?? undefined) as unknown as Record<string, unknown> | undefined);
}

test('answers kept across revisions and clocks equal those of a store read afresh', async () => {
  const dir = await tempDir();
  const clock = new ManualClock(NOW - 2 * DAY);
  const store = await openStore({ dataDir: dir, clock, watchKeys: false });
  try {
    // Fewer: each is written in its own transactions.
    const set = fixedSet(900);
    const kept = openSignalStore<EntrySignal>(store.root);
    // Three in four evaluated at first; the rest claimed, evaluated later in scattered order.
    for (let i = 0; i < set.length; i++) await write(kept, set[i], i % 4 !== 1);
    const source = { store: openHistoryStore(store.root), clock, signals: kept };
    const bodies = (signals: SignalStore<EntrySignal>) => {
      const out: string[] = [];
      for (const window of PERFORMANCE_WINDOWS) {
        for (const groupBy of PERFORMANCE_GROUPS) {
          for (const format of ['json', 'csv']) {
            const answer = signalPerformanceAnswer({ ...source, signals },
              new Map([['window', window], ['groupBy', groupBy], ['format', format]]), '');
            assert.ok(answer.ok);
            if (answer.ok) out.push(answer.value.body as string);
          }
        }
      }
      return out;
    };
    const later = set.filter((_, i) => i % 4 === 1);
    for (let step = 0; step < 4; step++) {
      const answered = bodies(kept);
      // A handle of its own: nothing kept from the answers before.
      assert.equal(answered, bodies(openSignalStore<EntrySignal>(store.root)), `step ${step}`);
      for (const d of later.filter((_, k) => k % 4 === step)) await write(kept, d, true);
      clock.set(clock.nowMs() + (step === 2 ? 0 : 17 * HOUR + 7 * BAR));
    }
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
