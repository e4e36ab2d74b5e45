// Restart resumes (issue #18): the cost of saving and restoring pair state against the warm-up
// it replaces, in-process and in the same run. N pairs are warmed up over the simulator's
// warm-up (the baseline: what a start without saved state does for them), their states saved
// (msgpackr bytes, as the store keeps them) and restored into fresh engines. CPU time, so the
// figures hold on a loaded machine; bytes per pair do not depend on load at all.
import { cpuUsage } from 'node:process';
import { createPairEngine } from '../actors/shard/pair-engine.js';
import { printRows, quick, type ReportRow } from './harness.js';
import { warmEngines } from './lib/warm-engines.js';

const START_MS = Date.parse('2026-03-02T12:00:00Z');

function cpuMs(): number {
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const pairs = opts.quick ? 20 : 100;
  // 72 h: VPIN's level needs 100 buckets (2 days); the default 168 h costs 2.3x more to warm.
  const warmupHours = 72;
  let t = cpuMs();
  const warmed = warmEngines(pairs, warmupHours, START_MS);
  const warmMs = cpuMs() - t;
  t = cpuMs();
  const saved = warmed.map(({ symbol, engine }) => ({ symbol, bytes: engine.saveState()! }));
  const saveMs = cpuMs() - t;
  t = cpuMs();
  let restored = 0;
  for (const { symbol, bytes } of saved) {
    const engine = createPairEngine(symbol, { cadenceMs: 1_000, wallNowMs: () => 0 });
    if (engine.restoreState(bytes).restored) restored++;
  }
  const restoreMs = cpuMs() - t;
  if (restored !== pairs) throw new Error(`${pairs - restored} states refused`);
  const bytes = saved.reduce((sum, s) => sum + s.bytes.byteLength, 0);
  return [
    { bench: 'restore', figure: `restore ${pairs} pairs from saved state, CPU (baseline: their ` +
      `${warmupHours} h warm-up)`, value: restoreMs, unit: 'ms', baseline: warmMs,
    ratio: restoreMs / warmMs, target: '-', pass: null },
    { bench: 'restore', figure: `save ${pairs} pairs' state, CPU (baseline: warm-up)`,
      value: saveMs, unit: 'ms', baseline: warmMs, ratio: saveMs / warmMs, target: '-',
      pass: null },
    { bench: 'restore', figure: 'saved state per pair', value: bytes / pairs / 1024, unit: 'KiB',
      baseline: null, ratio: null, target: '-', pass: null },
  ];
}

if (process.argv[1]?.endsWith('restore.bench.ts')) printRows(await run({ quick }));
