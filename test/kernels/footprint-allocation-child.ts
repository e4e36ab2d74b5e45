// Run as its own process (node --expose-gc --import tsx footprint-allocation-child.ts): a million
// footprint trades after a warm-up, printing the young-generation collections they ran and the
// heap they left, as JSON. Its own process, so no other test's work is counted.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import {
  applyFootprint, createFootprintState, defaultFootprintOptions, type FootprintState,
} from '../../kernels/footprint.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

const T0 = Date.UTC(2024, 7, 8, 20);
/** Trades `from` .. `to`: 10 ms apart (27.8 hours a million), a wavy BTC-like price. */
function feed(s: FootprintState, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const price = Math.round((60_000 + 400 * Math.sin(i / 20_000) + (i % 17) * 0.7) * 10) / 10;
    applyFootprint(s, T0 + i * 10, price, 0.001 + (i % 13) * 0.01, (i * 31) % 7 < 3 ? 1 : -1);
  }
}

const s = createFootprintState({ ...defaultFootprintOptions, tickSize: 0.1 });
// Warm-up in small calls, so the loop runs optimized code when measured.
for (let k = 0; k < 100; k++) feed(s, k * 1000, (k + 1) * 1000);
// Let the module loader's own work (a cold transpile cache writes files) finish first.
await new Promise((resolve) => setTimeout(resolve, 500));
/**
 * A million trades (`round` 1, 2, 3: each its own million), with the young-generation
 * collections they ran and the heap they left.
 */
async function measure(round: number): Promise<{ minor: number; grownBytes: number }> {
  gc!();
  const heapBefore = process.memoryUsage().heapUsed;
  let minor = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor += 1;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const from = 100 + (round - 1) * 1000;
  for (let k = from; k < from + 1000; k++) feed(s, k * 1000, (k + 1) * 1000);
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  gc!();
  return { minor, grownBytes: process.memoryUsage().heapUsed - heapBefore };
}

// The best of three: on a loaded machine the optimizing compiler can finish after the warm-up,
// and the first calls then run unoptimized code, which boxes numbers. An object per trade runs
// dozens of collections in every round.
let best = await measure(1);
for (let round = 2; round <= 3 && best.minor > 0; round++) {
  const next = await measure(round);
  if (next.minor < best.minor) best = next;
}
process.stdout.write(JSON.stringify(best));
