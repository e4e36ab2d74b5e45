// The runtime metrics keep prom-client's default exposition: the same metric names, help, types
// and series (names and labels) as its collectDefaultMetrics, though the event-loop gauges are
// our own; and those gauges read a stalled loop as prom-client's do.
import { collectDefaultMetrics, Registry } from 'prom-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registerRuntimeMetrics } from '../../core/metrics/runtime.js';
import { sampleValue } from '../helpers/exposition.js';

const test = suite('runtime metrics');
const prefix = 'orderflow_';

/** The exposition of prom-client's own collectors, as the service had them before. */
function promClientDefaults(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix, eventLoopMonitoringPrecision: 10 });
  for (const name of ['active_handles_total', 'active_requests_total', 'active_resources_total']) {
    registry.removeSingleMetric(`${prefix}nodejs_${name}`);
  }
  return registry;
}

/**
 * HELP and TYPE lines, and each sample's name and labels without its value. GC and active
 * resource samples are left out: the kinds of collection and of resource (a pending
 * setImmediate) can differ between two scrapes.
 */
const changing = /^orderflow_nodejs_(gc_duration_seconds_|active_)/;

function seriesSet(text: string): string[] {
  return text.split('\n').filter((line) => line !== '' && !changing.test(line))
    .map((line) => (line.startsWith('#') ? line : line.slice(0, line.lastIndexOf(' '))))
    .sort();
}

const stallMs = (ms: number) => {
  const untilMs = performance.now() + ms;
  while (performance.now() < untilMs);
};
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('the series set is prom-client\'s default one', async () => {
  const ours = new Registry();
  registerRuntimeMetrics(ours);
  const theirs = promClientDefaults();
  await tick(50);
  const [oursText, theirsText] = [await ours.metrics(), await theirs.metrics()];
  assert.equal(seriesSet(oursText), seriesSet(theirsText));
  assert.ok(oursText.includes(`# TYPE ${prefix}nodejs_eventloop_lag_p99_seconds gauge`));
});

test('a stalled loop shows in the delay gauges, mean and stddev within the window', async () => {
  const registry = new Registry();
  registerRuntimeMetrics(registry);
  await registry.metrics();
  await tick(40);
  stallMs(250);
  await tick(40);
  const text = await registry.metrics();
  const gauge = (what: string) =>
    sampleValue(text, `${prefix}nodejs_eventloop_lag_${what}seconds`)!;
  const [min, max, mean, stddev] = ['min_', 'max_', 'mean_', 'stddev_'].map(gauge);
  const [p50, p90, p99] = ['p50_', 'p90_', 'p99_'].map(gauge);
  assert.ok(max! >= 0.25, `max ${max} s after a 250 ms stall`);
  assert.ok(min! > 0 && min! <= p50! && p50! <= p90! && p90! <= p99!, text);
  assert.ok(p99! <= max! * 1.01, `p99 ${p99} against max ${max}`);
  assert.ok(mean! > min! && mean! < max!, `mean ${mean} between ${min} and ${max}`);
  assert.ok(stddev! > 0 && stddev! < max!, `stddev ${stddev}`);
  // The next window starts at the last scrape: the stall is not in it.
  stallMs(5);
  await tick(40);
  const next = await registry.metrics();
  const nextMax = sampleValue(next, `${prefix}nodejs_eventloop_lag_max_seconds`)!;
  assert.ok(nextMax < max!, `the next window's max ${nextMax} s still holds the stall's ${max} s`);
});

test.run();
