// Metrics of webhook delivery, read at scrape time from the supervisor: deliveries by result,
// enqueue-to-delivery latency, the oldest delivery still waiting and the endpoints disabled.
import type { Registry } from 'prom-client';
import type { Clock } from '../../core/clock.js';
import { registerCollected, registerValue } from '../../core/metrics/collected.js';
import { deliveryResults } from './meters.js';
import type { WebhookSupervisor } from './supervisor.js';

export function registerWebhookMetrics(registry: Registry, webhooks: WebhookSupervisor,
  clock: Clock): void {
  registerCollected(registry, {
    name: 'orderflow_webhooks_deliveries_total', type: 'counter',
    help: 'Delivery outcomes: delivered (2xx), retried (failed, due again), failed (dead-' +
      'lettered after attempts), dropped (dead-lettered or refused without an attempt).',
    read: (out) => {
      for (const result of deliveryResults) {
        out.push({ labels: { result }, value: webhooks.meters.results[result] });
      }
    },
  });
  registerCollected(registry, {
    name: 'orderflow_webhooks_delivery_latency_seconds', type: 'histogram',
    help: 'From an event\'s enqueue to its delivery (the 2xx), retries included.',
    read: (out) => webhooks.meters.latency.read(out,
      'orderflow_webhooks_delivery_latency_seconds'),
  });
  registerValue(registry, 'orderflow_webhooks_oldest_pending_age_seconds',
    'Age of the oldest delivery waiting in the outbox (0: none waits).', () => {
      const createdMs = webhooks.stats().oldestPendingCreatedMs;
      return createdMs === null ? 0 : Math.max(0, clock.nowMs() - createdMs) / 1000;
    });
  registerValue(registry, 'orderflow_webhooks_endpoints_disabled',
    'Endpoints disabled (a 410, 5 days of failures, or their owner).',
    () => webhooks.stats().disabledEndpoints);
}
