// The webhook metrics move with real deliveries to a real local receiver: a failed attempt is
// counted retried and leaves the oldest pending age growing, a 2xx is delivered with its
// latency, and a 410 fails the delivery and disables the endpoint.
import { Registry } from 'prom-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registerWebhookMetrics } from '../../actors/webhooks/webhook-metrics.js';
import { sampleValue } from '../helpers/exposition.js';
import { startHarness, type Harness } from './fixtures.js';

const test = suite('webhook metrics');

async function scrape(h: Harness, registry: Registry): Promise<(name: string,
  labels?: Record<string, string>) => number | undefined> {
  await h.sup.idle();
  const text = await registry.metrics();
  return (name, labels) => sampleValue(text, name, labels);
}

function withMetrics(h: Harness): Registry {
  const registry = new Registry();
  registerWebhookMetrics(registry, h.sup, h.clock);
  return registry;
}

test('a failing receiver: retried, then delivered with its latency', async () => {
  const h = await startHarness({ reply: (n) => ({ status: n === 0 ? 500 : 200 }) });
  try {
    const registry = withMetrics(h);
    await h.publish();
    let read = await scrape(h, registry);
    assert.is(read('orderflow_webhooks_deliveries_total', { result: 'retried' }), 1);
    assert.is(read('orderflow_webhooks_deliveries_total', { result: 'delivered' }), 0);
    h.clock.advance(3_000);
    read = await scrape(h, registry);
    assert.is(read('orderflow_webhooks_oldest_pending_age_seconds'), 3);
    // The retry is due 5 s after the first attempt.
    await h.travel(3_000);
    read = await scrape(h, registry);
    assert.is(h.rx.received.length, 2);
    assert.is(read('orderflow_webhooks_deliveries_total', { result: 'delivered' }), 1);
    assert.is(read('orderflow_webhooks_delivery_latency_seconds_count'), 1);
    assert.is(read('orderflow_webhooks_delivery_latency_seconds_sum'), 6);
    assert.is(read('orderflow_webhooks_oldest_pending_age_seconds'), 0);
    assert.is(read('orderflow_webhooks_endpoints_disabled'), 0);
  } finally {
    await h.close();
  }
});

test('a receiver gone (410): failed, and the endpoint disabled', async () => {
  const h = await startHarness({ reply: () => ({ status: 410 }) });
  try {
    const registry = withMetrics(h);
    await h.publish();
    const read = await scrape(h, registry);
    assert.is(read('orderflow_webhooks_deliveries_total', { result: 'failed' }), 1);
    assert.is(read('orderflow_webhooks_deliveries_total', { result: 'retried' }), 0);
    assert.is(read('orderflow_webhooks_endpoints_disabled'), 1);
  } finally {
    await h.close();
  }
});

test.run();
