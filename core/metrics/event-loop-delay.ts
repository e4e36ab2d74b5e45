// Event-loop delay under prom-client's default names (nodejs_eventloop_lag_*), sampled by a timer
// of our own: perf_hooks' monitor gives mean and stddev only by walking every bucket of its
// histogram, about 1 ms of the main thread a scrape. Here both come from running sums, and min,
// max and percentiles from a histogram fed with the same samples (the time between two ticks).
import { createHistogram, performance } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import { registerValue } from './collected.js';

const nsPerS = 1e9;
/** Delays kept from 1 us to 100 s: a percentile walks the buckets up to it, fewer from 1 us. */
const delayNsMin = 1_000;
const delayNsMax = 100 * nsPerS;

/** Registers the lag gauges of `prefix`nodejs_eventloop_lag_*; samples every `resolutionMs`. */
export function registerEventLoopDelay(registry: Registry, prefix: string,
  resolutionMs: number): void {
  const delays = createHistogram({ lowest: delayNsMin, highest: delayNsMax });
  let sumNs = 0;
  let squaresNs2 = 0;
  let tickMs = performance.now();
  const tick = setInterval(() => {
    const nowMs = performance.now();
    const delayNs = Math.min(delayNsMax, Math.round((nowMs - tickMs) * 1e6));
    tickMs = nowMs;
    if (delayNs < delayNsMin) return;
    delays.record(delayNs);
    sumNs += delayNs;
    squaresNs2 += delayNs * delayNs;
  }, resolutionMs);
  tick.unref();
  // The time a setImmediate set at one scrape waited, reported at the next (as prom-client does).
  let lagS = 0;
  const gauge = (what: string, help: string, value: () => number) =>
    registerValue(registry, `${prefix}nodejs_eventloop_lag_${what}seconds`, help, value);
  gauge('', 'Lag of event loop in seconds.', () => {
    const startMs = performance.now();
    setImmediate(() => { lagS = (performance.now() - startMs) / 1e3; });
    return lagS;
  });
  // The others read the window since the last scrape; the last one read starts a new window.
  gauge('min_', 'The minimum recorded event loop delay.', () => delays.min / nsPerS);
  gauge('max_', 'The maximum recorded event loop delay.', () => delays.max / nsPerS);
  gauge('mean_', 'The mean of the recorded event loop delays.',
    () => sumNs / delays.count / nsPerS);
  gauge('stddev_', 'The standard deviation of the recorded event loop delays.', () => {
    const meanNs = sumNs / delays.count;
    return Math.sqrt(Math.max(0, squaresNs2 / delays.count - meanNs * meanNs)) / nsPerS;
  });
  gauge('p50_', 'The 50th percentile of the recorded event loop delays.',
    () => delays.percentile(50) / nsPerS);
  gauge('p90_', 'The 90th percentile of the recorded event loop delays.',
    () => delays.percentile(90) / nsPerS);
  gauge('p99_', 'The 99th percentile of the recorded event loop delays.', () => {
    const p99S = delays.percentile(99) / nsPerS;
    delays.reset();
    sumNs = 0;
    squaresNs2 = 0;
    return p99S;
  });
}
