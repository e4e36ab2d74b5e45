// Warm start: `orderflow serve` on the simulator from spawn to /readyz with the full default
// warm-up (168 market hours) and with none, in the same run; warm-up speed in market hours per
// wall second; and, at ready, how many tracked pairs have numeric vpin, vpinLevel, regime,
// signalScore (signals view) and kyleLambda (deep view). Baseline: the same start, --warmup 0.
import { printRows, quick, type ReportRow } from './harness.js';
import { getText } from './lib/http-get.js';
import {
  createKey, removeDir, startService, tempDataDir, waitReady,
} from './lib/service.js';

const DEFAULT_WARMUP_HOURS = 168;
const CLOCK_START = '2026-03-02T12:00:00Z';

interface Start {
  readonly readyMs: number;
  readonly tracked: number;
  /** Tracked pairs with every headline metric a number at ready. */
  readonly complete: number;
  /** Per metric, the tracked pairs where it was null. */
  readonly missing: Record<string, string[]>;
}

async function json(url: string, key?: string): Promise<any> {
  const { body } = await getText(url, key ? { authorization: `Bearer ${key}` } : {});
  return JSON.parse(body);
}

/** One start with `warmupHours`; at ready, reads every tracked pair's metrics. */
async function timeStart(warmupHours: number): Promise<Start> {
  const dataDir = await tempDataDir('warmup');
  try {
    const key = await createKey(dataDir, 'Whale');
    const service = await startService({ dataDir,
      args: ['--warmup', String(warmupHours), '--clock-start', CLOCK_START, '--limits', 'off'] });
    try {
      const readyAtMs = await waitReady(service.baseUrl, 120_000);
      const screener = await json(`${service.baseUrl}/api/v1/screener`, key);
      const tracked = (screener.pairs as { symbol: string; tracked: boolean }[])
        .filter((p) => p.tracked).map((p) => p.symbol);
      const signals = await json(`${service.baseUrl}/api/v1/signals`, key);
      const missing: Record<string, string[]> = {};
      let complete = 0;
      for (const symbol of tracked) {
        // Limits are off (loopback): one request per view and pair, 200 in a few seconds.
        const pair = await json(`${service.baseUrl}/api/v1/pair/${encodeURIComponent(symbol)}`,
          key);
        const deep = await json(
          `${service.baseUrl}/api/v1/deep-view/${encodeURIComponent(symbol)}`, key);
        const signal = signals[symbol] ?? signals.signals?.find((s: any) => s.symbol === symbol);
        const values: Record<string, unknown> = {
          vpin: pair.vpin, vpinLevel: pair.vpinLevel, regime: pair.regime,
          signalScore: pair.signalScore, kyleLambda: deep.kyleLambda, signals: signal ?? null,
        };
        let ok = true;
        for (const [name, value] of Object.entries(values)) {
          if (value === null || value === undefined) {
            (missing[name] ??= []).push(symbol);
            ok = false;
          }
        }
        if (ok) complete++;
      }
      return { readyMs: readyAtMs - service.spawnedAtMs, tracked: tracked.length, complete,
        missing };
    } finally {
      await service.stop();
    }
  } finally {
    await removeDir(dataDir);
  }
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const runs = opts.quick ? 1 : 3;
  const cold: Start[] = [];
  const warm: Start[] = [];
  for (let i = 0; i < runs; i++) {
    cold.push(await timeStart(0));
    warm.push(await timeStart(DEFAULT_WARMUP_HOURS));
  }
  const coldMs = median(cold.map((s) => s.readyMs));
  const warmMs = median(warm.map((s) => s.readyMs));
  const last = warm[warm.length - 1];
  const speed = DEFAULT_WARMUP_HOURS / Math.max(0.001, (warmMs - coldMs) / 1000);
  const missing = Object.entries(last.missing)
    .map(([name, symbols]) => `${name}: ${symbols.join(' ')}`).join('; ');
  if (missing) console.error(`warmup: null at ready: ${missing}`);
  return [
    { bench: 'warmup', figure: `spawn to /readyz, ${DEFAULT_WARMUP_HOURS} h warm-up ` +
      '(baseline: --warmup 0)', value: warmMs / 1000, unit: 's', baseline: coldMs / 1000,
    ratio: warmMs / coldMs, target: '< 5 s', pass: warmMs < 5_000 },
    { bench: 'warmup', figure: 'warm-up speed (market hours per wall second over the cold start)',
      value: speed, unit: 'h/s', baseline: null, ratio: null, target: '-', pass: null },
    { bench: 'warmup', figure: 'tracked pairs with vpin, vpinLevel, regime, signalScore, ' +
      'kyleLambda and a signals entry at ready', value: last.complete, unit: 'pairs',
    baseline: last.tracked, ratio: last.complete / Math.max(1, last.tracked),
    target: 'all tracked', pass: last.complete === last.tracked },
  ];
}

if (process.argv[1]?.endsWith('warmup.bench.ts')) printRows(await run({ quick }));
