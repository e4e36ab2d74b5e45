// The footprint's trade path allocates nothing: a million trades after a warm-up run no young
// generation collection, and leave the heap where it was (crossing bars and a UTC day).
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  applyFootprint, createFootprintState, defaultFootprintOptions, type FootprintState,
} from '../../kernels/footprint.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const T0 = Date.UTC(2024, 7, 8, 20);
/** Trades `from` .. `to`: 10 ms apart (27.8 hours a million), a wavy BTC-like price. */
function feed(s: FootprintState, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const price = Math.round((60_000 + 400 * Math.sin(i / 20_000) + (i % 17) * 0.7) * 10) / 10;
    applyFootprint(s, T0 + i * 10, price, 0.001 + (i % 13) * 0.01, (i * 31) % 7 < 3 ? 1 : -1);
  }
}

test('a million trades run no young-generation collection and keep the heap flat', async () => {
  const s = createFootprintState({ ...defaultFootprintOptions, tickSize: 0.1 });
  // Warm-up in small calls, so the loop runs optimized code when measured.
  for (let k = 0; k < 100; k++) feed(s, k * 1000, (k + 1) * 1000);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let minor = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor += 1;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  for (let k = 100; k < 1100; k++) feed(s, k * 1000, (k + 1) * 1000);
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  gc();
  const grownBytes = process.memoryUsage().heapUsed - heapBefore;
  // One collection is allowed for what the runner itself does meanwhile; an allocation per
  // trade (even 16 bytes) is 16 MB: several.
  assert.ok(minor <= 1, `${minor} young-generation collections during 10^6 trades`);
  assert.ok(grownBytes < 1_000_000, `heap grew ${grownBytes} bytes`);
});

test.run();
