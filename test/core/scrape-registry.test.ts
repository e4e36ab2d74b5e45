// The service's registry writes the same text as prom-client's own for the same metrics, and
// takes the collectors that read /proc or the file system off the scrape: their values come from
// the registry's sampling timer, so a scrape between two samples shows the last one.
import { closeSync, openSync } from 'node:fs';
import { Gauge, Registry } from 'prom-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BucketHistogram } from '../../core/metrics/bucket-histogram.js';
import { registerCollected, registerValue } from '../../core/metrics/collected.js';
import { registerRuntimeMetrics } from '../../core/metrics/runtime.js';
import { sampled, ScrapeRegistry } from '../../core/metrics/scrape-registry.js';
import { eventually } from '../helpers/eventually.js';
import { sampleValue } from '../helpers/exposition.js';

const test = suite('scrape registry');
/** Long enough that no sample is taken by the timer while a test runs. */
const idlePeriodMs = 3_600_000;

/** Collected metrics with every kind of sample, and one of prom-client's own. */
function registerSome(registry: Registry): void {
  const histogram = new BucketHistogram([0.001, 0.01, 1]);
  for (const v of [0.0005, 0.002, 0.5, 3]) histogram.observe(v);
  registerCollected(registry, { name: 'demo_requests_total', type: 'counter',
    help: 'Answers by "route",\nwith a back\\slash.', read: (out) => {
      out.push({ labels: { route: 'pair', status: 200 }, value: 12 });
      out.push({ labels: { route: 'odd "quoted"\\ \nname', status: 404 }, value: 0.5 });
    } });
  registerCollected(registry, { name: 'demo_seconds', type: 'histogram', help: 'Times.',
    read: (out) => histogram.read(out, 'demo_seconds', { shard: 1 }) });
  registerValue(registry, 'demo_nan', 'Not a number.', () => NaN);
  registerValue(registry, 'demo_up', 'Infinite.', () => Infinity);
  registerValue(registry, 'demo_down', 'Minus infinite.', () => -Infinity);
  registerCollected(registry, { name: 'demo_empty', type: 'gauge', help: 'No samples.',
    read: () => {} });
  const theirs = new Gauge({ name: 'demo_theirs', help: 'prom-client\'s own gauge.',
    labelNames: ['kind'], registers: [registry] });
  theirs.set({ kind: 'a' }, 3);
}

test('the text is the one prom-client writes for the same metrics', async () => {
  const theirs = new Registry();
  const ours = new ScrapeRegistry(idlePeriodMs);
  registerSome(theirs);
  registerSome(ours);
  const text = await ours.metrics();
  assert.is(text, await theirs.metrics());
  assert.ok(text.includes('route="odd \\"quoted\\"\\\\ \\nname"'), text);
  ours.setDefaultLabels({ instance: 'x' });
  theirs.setDefaultLabels({ instance: 'x' });
  assert.is(await ours.metrics(), await theirs.metrics());
});

test('a sampled value is the one the timer read last, not the one at the scrape', async () => {
  const registry = new ScrapeRegistry(idlePeriodMs);
  let bytes = 100;
  registerValue(registry, 'demo_bytes', 'Bytes.', sampled(registry, () => bytes));
  const read = async () => sampleValue(await registry.metrics(), 'demo_bytes');
  assert.is(await read(), 100);
  bytes = 200;
  assert.is(await read(), 100, 'read again at the scrape');
  registry.refreshSamples();
  assert.is(await read(), 200);
  registry.close();
});

test('the timer samples on its own, every sample period, until closed', async () => {
  const registry = new ScrapeRegistry(5);
  let bytes = 1;
  const value = sampled(registry, () => bytes);
  assert.is(value(), 1);
  bytes = 2;
  await eventually(() => value() === 2, { message: 'the timer did not sample again' });
  registry.close();
});

test('a failed read reaches the scrape, and the next scrape reads again', async () => {
  const registry = new ScrapeRegistry(idlePeriodMs);
  let failing = false;
  registerValue(registry, 'demo_size', 'Size.', sampled(registry, () => {
    if (failing) throw new Error('the folder is gone');
    return 7;
  }));
  assert.is(sampleValue(await registry.metrics(), 'demo_size'), 7);
  failing = true;
  registry.refreshSamples();
  await registry.metrics().then(() => assert.unreachable('the scrape hid the failure'),
    (error: Error) => assert.match(error.message, 'the folder is gone'));
  failing = false;
  assert.is(sampleValue(await registry.metrics(), 'demo_size'), 7);
});

test('prom-client\'s /proc collectors are sampled by the timer, elsewhere read each scrape',
  async () => {
    const ours = new ScrapeRegistry(idlePeriodMs);
    const plain = new Registry();
    registerRuntimeMetrics(ours);
    registerRuntimeMetrics(plain);
    const fds = async (registry: Registry) =>
      sampleValue(await registry.metrics(), 'orderflow_process_open_fds')!;
    const [oursBefore, plainBefore] = [await fds(ours), await fds(plain)];
    const opened = Array.from({ length: 20 }, () => openSync(import.meta.filename, 'r'));
    try {
      assert.ok(await fds(plain) >= plainBefore + 20, 'the plain registry reads /proc/self/fd');
      assert.is(await fds(ours), oursBefore, 'open fds read at the scrape');
      ours.refreshSamples();
      assert.ok(await fds(ours) >= oursBefore + 20, 'the sample did not see the new fds');
    } finally {
      for (const fd of opened) closeSync(fd);
      ours.close();
    }
  });

test.run();
