// What webhook delivery counts for the service's metrics: deliveries by result, the time from an
// event's enqueue to its delivery, and the oldest delivery still waiting. Plain numbers, read at
// scrape time (bin/service-metrics.ts).
import { BucketHistogram } from '../../core/metrics/bucket-histogram.js';
import type { DeliveryRecord } from '../../persistence/outbox.js';

/**
 * delivered: a 2xx; retried: an attempt failed and another is scheduled; failed: dead-lettered
 * after an attempt (attempts exhausted, or 410); dropped: dead-lettered or refused without an
 * attempt (endpoint disabled or removed, outbox full).
 */
export const deliveryResults = ['delivered', 'retried', 'failed', 'dropped'] as const;
export type DeliveryResult = (typeof deliveryResults)[number];

/** Enqueue to delivery, seconds: one attempt is well under a second, retries minutes to days. */
export const deliveryLatencyBoundsS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60, 300, 3_600,
  86_400];

export class WebhookMeters {
  readonly results: Record<DeliveryResult, number> = {
    delivered: 0, retried: 0, failed: 0, dropped: 0,
  };
  readonly latency = new BucketHistogram(deliveryLatencyBoundsS);

  /** A delivery's transition was recorded at `nowMs`; `previous` is what it was before. */
  recorded(previous: DeliveryRecord, next: DeliveryRecord, nowMs: number): void {
    if (next.status === 'delivered') {
      this.results.delivered++;
      // A replayed delivery was enqueued long ago: its time says nothing about delivery.
      if (next.replays === 0) this.latency.observe(Math.max(0, nowMs - next.createdAtMs) / 1000);
    } else if (next.status === 'pending') {
      this.results.retried++;
    } else if (next.attempts > previous.attempts) {
      this.results.failed++;
    } else {
      this.results.dropped++;
    }
  }

  /** Deliveries dead-lettered or refused without an attempt. */
  dropped(count: number): void {
    this.results.dropped += count;
  }
}
