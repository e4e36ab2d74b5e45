// Track-record bench: GET /api/v1/signals/performance over 30 days of signals at the default
// warm-up's rate (about 4,600, with outcomes and baselines), sequential and uncached (a new
// outcome stored before each request, so every answer is recomputed), p99 against the 50 ms
// target; the same with the interval cache emptied first (every bootstrap redone); and a
// repeated poll under wrk against /api/v1/pair/BTC on the same front.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { open } from 'lmdb';
import { systemClock } from '../core/clock.js';
import { GRADES, type Grade } from '../core/messages.js';
import { resolveConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { clearIntervalCache } from '../actors/signals/interval-cache.js';
import { PERFORMANCE_GROUPS } from '../actors/signals/track-record.js';
import type { EntrySignal, FirstLevelHit } from '../actors/signals/types.js';
import { openHistoryStore } from '../persistence/history.js';
import { openSignalStore, type SignalStore } from '../persistence/signals.js';
import { startHttpServer } from '../http/server.js';
import { keyFor, MemoryKeys, MemoryUsage, seededStore } from '../test/http/helpers/seed.js';
import { seededRandom } from '../test/helpers/seeded-random.js';
import { printRows, quick, type ReportRow } from './harness.js';
import { closeProbeSockets, getText } from './lib/http-get.js';
import { tempDataDir } from './lib/service.js';
import { ensureWrk, runWrk } from './lib/wrk.js';
import { sortedQuantile } from './lib/quantile.js';

const DAY = 86_400_000;
const BAR = 300_000;
const HOUR = 3_600_000;
/** The grade mix of a default start's 30 days (A+ 2, A 31, B 375, C 3,428, D 804). */
const GRADE_WEIGHTS = [0.0005, 0.0067, 0.081, 0.738, 0.1738];
const HITS: FirstLevelHit[] = ['t1', 'stop', 'none', 'both_same_bar'];

function pick<T>(items: readonly T[], weights: readonly number[], u: number): T {
  let sum = 0;
  for (let i = 0; i < items.length; i++) {
    sum += weights[i];
    if (u < sum) return items[i];
  }
  return items[items.length - 1];
}

/** Stores the i-th signal (bar ending before nowMs) with its outcome and baseline. */
async function store(signals: SignalStore<EntrySignal>, i: number, barMs: number,
  draw: () => number): Promise<void> {
  const side = draw() < 0.5 ? 'long' : 'short';
  const sign = side === 'long' ? 1 : -1;
  const symbol = `P${Math.floor(draw() * 100)}`;
  const signal: EntrySignal = {
    signal_id: `${symbol}-5m-${barMs}-${side}-${i}`, symbol,
    timeframe: (['5m', '15m', '1h'] as const)[i % 3], side,
    grade: pick(GRADES, GRADE_WEIGHTS, draw()) as Grade, score: Math.round(draw() * 200 - 100),
    bar_time: new Date(barMs).toISOString(),
    regime: (['trending', 'ranging', 'volatile'] as const)[i % 3], confirmed: true,
    flow_source: 'bar_delta',
    logics: { liquidity_grab: draw() < 0.6, flow_rejection: draw() < 0.3, absorption: false,
      cvd_divergence: draw() < 0.2, structure_shift: false, level_confluence: draw() < 0.1 },
    plan: { entry: 100, stop: 100 - sign, t1: 100 + 1.5 * sign, t2: 100 + 3 * sign, r_t1: 1.5,
      r_t2: 3 },
    price_at_signal: 100,
  };
  const signalMs = barMs + BAR;
  const hit = pick(HITS, [0.3, 0.5, 0.18, 0.02], draw());
  const move = draw() * 2 - 1;
  await signals.claim(signal, signalMs);
  await signals.scheduleOutcome(signal.signal_id, '', signalMs, signalMs + 4 * HOUR);
  await signals.completeOutcome(signal.signal_id, {
    entry_event_id: '', signal_id: signal.signal_id, symbol, timeframe: signal.timeframe, side,
    grade: signal.grade, horizon: '4h', signaled_at: new Date(signalMs).toISOString(),
    evaluated_at: new Date(signalMs + 4 * HOUR).toISOString(), price_at_signal: 100,
    price_after: 100 + sign * move, move_pct: move, max_favorable_pct: Math.abs(move),
    max_adverse_pct: -Math.abs(move) / 2, first_level_hit: hit, t2_hit: false, complete: true,
    t2_touched_any: false, bars: 48,
  }, { mirror_first_level_hit: hit === 't1' ? 'stop' : hit === 'stop' ? 't1' : hit,
    trend_side: draw() < 0.2 ? null : draw() < 0.5 ? 'long' : 'short' });
}

const COUNT = 4_640;

/** 30 days of signals before nowMs, evaluated; returns the generator to draw more from. */
export async function storeForBench(signals: SignalStore<EntrySignal>, nowMs: number):
  Promise<() => number> {
  const draw = seededRandom(35);
  for (let i = 0; i < COUNT; i++) {
    await store(signals, i, nowMs - 30 * DAY + Math.floor((i / COUNT) * (30 * DAY - 5 * HOUR)
      / BAR) * BAR, draw);
  }
  return draw;
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  const dir = await tempDataDir('signal-performance');
  const root = open({ path: join(dir, 'store') });
  const nowMs = Date.parse('2026-11-21T00:00:00.000Z');
  const count = COUNT;
  try {
    const signals = openSignalStore<EntrySignal>(root);
    const draw = await storeForBench(signals, nowMs);
    const keys = new MemoryKeys();
    const key = keyFor(1);
    keys.add(key, 'Whale');
    const clock = { nowMs: () => nowMs };
    const server = await startHttpServer({
      config: resolveConfig({ host: '127.0.0.1', port: 0, limitsEnabled: false }),
      clock: systemClock, logger: silentLogger, snapshots: seededStore(), keys,
      usage: new MemoryUsage(), readiness: () => ({ ready: true, checks: {} }),
      history: { store: openHistoryStore(root), signals, clock },
    });
    const base = `http://127.0.0.1:${server.port}`;
    const auth = { authorization: `Bearer ${key}` };
    try {
      const requests = opts.quick ? 140 : 700;
      const timed = async (cold: boolean) => {
        const latencies: number[] = [];
        for (let i = 0; i < requests; i++) {
          // A new outcome: no answer can be reused, as when evaluation goes on.
          await store(signals, count + i + (cold ? requests : 0), nowMs - 5 * HOUR, draw);
          if (cold) clearIntervalCache();
          const groupBy = PERFORMANCE_GROUPS[i % PERFORMANCE_GROUPS.length];
          const t0 = performance.now();
          const r = await getText(`${base}/api/v1/signals/performance?window=30d&groupBy=` +
            groupBy, auth);
          latencies.push(performance.now() - t0);
          if (r.status !== 200) throw new Error(`performance answered ${r.status}`);
        }
        return latencies.sort((a, b) => a - b);
      };
      // A running service answered every grouping once already: its bootstraps are kept.
      const firstMs: number[] = [];
      for (const groupBy of PERFORMANCE_GROUPS) {
        const t0 = performance.now();
        await getText(`${base}/api/v1/signals/performance?window=30d&groupBy=${groupBy}`, auth);
        firstMs.push(performance.now() - t0);
      }
      rows.push({ bench: 'signal-performance', figure: 'first answer after start, slowest ' +
        'groupBy (every bootstrap computed)', value: Math.max(...firstMs), unit: 'ms',
      baseline: null, ratio: null, target: '- (context)', pass: null });
      const warm = await timed(false);
      const cold = await timed(true);
      for (const [what, l] of [['new outcome before each', warm],
        ['new outcome and interval cache emptied before each', cold]] as const) {
        const p99 = sortedQuantile(l, 0.99);
        const p50 = sortedQuantile(l, 0.5);
        rows.push({ bench: 'signal-performance', figure: `30 d (${count} signals), every ` +
          `groupBy in turn, ${what}: p99`, value: p99, unit: 'ms', baseline: p50,
        ratio: p99 / p50, target: '< 50 ms (baseline: p50)', pass: p99 < 50 });
      }
      ensureWrk();
      const seconds = opts.quick ? 3 : 8;
      const headers = [`Authorization: Bearer ${key}`];
      const pairRun = await runWrk(`${base}/api/v1/pair/BTC`, { connections: 64, seconds,
        headers });
      const perfRun = await runWrk(`${base}/api/v1/signals/performance?window=30d`,
        { connections: 64, seconds, headers });
      for (const r of [pairRun, perfRun]) {
        if (r.non2xx + r.socketErrors > 0) throw new Error('performance bench: errors under load');
      }
      rows.push({ bench: 'signal-performance', figure: '30 d by grade, repeated poll req/s',
        value: perfRun.rps, unit: 'req/s', baseline: pairRun.rps,
        ratio: perfRun.rps / pairRun.rps, target: '>= 0.25x /api/v1/pair/BTC',
        pass: perfRun.rps / pairRun.rps >= 0.25 });
    } finally {
      await server.close();
    }
  } finally {
    await root.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1]?.endsWith('signal-performance.bench.ts')) {
  printRows(await run({ quick }));
  closeProbeSockets();
}
