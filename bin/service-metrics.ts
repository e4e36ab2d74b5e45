// The service's own metrics beside the front's: supervision, backfill, the venue's request
// budget, the webhook outbox and Redis, each read at scrape time from what its owner keeps.
import { readdirSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../core/clock.js';
import type { Registry } from 'prom-client';
import { registerCollected, registerValue } from '../core/metrics/collected.js';
import { sampled } from '../core/metrics/scrape-registry.js';
import type { BackfillStatus } from '../actors/runtime/backfill-status.js';
import type { MarketPace } from '../actors/runtime/market-pace.js';
import type { ShardHandle } from '../actors/runtime/shard-handle.js';
import { registerSupervisionMetrics } from '../actors/runtime/supervision-metrics.js';
import { registerShardMetrics } from '../actors/runtime/shard-metrics.js';
import type { ShardMeters } from '../actors/shard/shard-meters.js';
import type { SharedBudget } from '../actors/feed/budget.js';
import type { WebhookSupervisor } from '../actors/webhooks/supervisor.js';
import { registerWebhookMetrics } from '../actors/webhooks/webhook-metrics.js';
import type { SignalPipeline } from '../actors/runtime/signal-pipeline.js';
import type { HistoryRecorder } from '../actors/runtime/history-recorder.js';
import { registerSignalHistoryMetrics } from '../actors/runtime/signal-history-metrics.js';
import type { RedisLink } from '../scale-out/redis-link.js';
import type { RedisLimits } from '../scale-out/redis-limits.js';
import { registerScaleOutMetrics } from '../scale-out/scale-out-metrics.js';

export interface ServiceMetricParts {
  shards(): readonly ShardHandle[];
  /** Each shard's feed and mailbox counts (actors/shard/shard-meters.ts). */
  meters(): readonly ShardMeters[];
  pace(): MarketPace | null;
  tracked(): readonly string[];
  readonly backfill: BackfillStatus;
  readonly budget: SharedBudget | null;
  readonly webhooks: WebhookSupervisor;
  readonly redis: RedisLink | null;
  /** Scale-out's limit step in Redis (its script's round trips); null without Redis. */
  readonly redisLimits: RedisLimits | null;
  /** The store's folder: its file system's free space is read at each scrape. */
  readonly dataDir: string;
  /** The store's own folders, main and bulk (their files' size is sampled). */
  readonly storePaths: readonly string[];
  /** Times the bulk store was closed and opened again (persistence/reopening-environment.ts). */
  readonly storeReopens: () => number;
  readonly signals: SignalPipeline;
  readonly history: HistoryRecorder;
  /** The service (delivery) clock: webhook delivery ages. */
  readonly clock: Clock;
}

export function registerServiceMetrics(registry: Registry, p: ServiceMetricParts): void {
  registerSupervisionMetrics(registry, p.shards, p.pace);
  registerShardMetrics(registry, p.meters);
  registerValue(registry, 'orderflow_pairs_tracked', 'Pairs the service tracks.',
    () => p.tracked().length);
  registerCollected(registry, {
    name: 'orderflow_feed_backfill_pairs', type: 'gauge',
    help: 'Tracked pairs by backfill outcome (live feed): filled, pending, unfilled.',
    read: (out) => {
      const counts = p.backfill.counts(p.tracked());
      if (counts === null) return;
      for (const [state, value] of Object.entries(counts)) out.push({ labels: { state }, value });
    },
  });
  const { budget } = p;
  if (budget !== null) {
    registerCollected(registry, {
      name: 'orderflow_feed_budget_available', type: 'gauge',
      help: 'The venue\'s request budget left now (rest: weight, ws: messages).',
      read: (out) => {
        for (const bucket of ['rest', 'ws'] as const) {
          out.push({ labels: { bucket }, value: budget.available(bucket) });
        }
      },
    });
    registerValue(registry, 'orderflow_feed_subscriptions', 'Venue WebSocket subscriptions held.',
      () => budget.subscriptions());
  }
  registerValue(registry, 'orderflow_webhooks_outbox_pending',
    'Deliveries waiting in the outbox.', () => p.webhooks.stats().pending);
  registerValue(registry, 'orderflow_webhooks_in_flight', 'Deliveries being attempted now.',
    () => p.webhooks.stats().inFlight);
  registerWebhookMetrics(registry, p.webhooks, p.clock);
  registerSignalHistoryMetrics(registry, p.signals, p.history);
  // File system reads: sampled by the registry's timer, off the scrape.
  const storeSize = sampled(registry, () => p.storePaths.reduce((sum, dir) =>
    sum + storeBytes(dir), 0));
  registerValue(registry, 'orderflow_store_size_bytes',
    'Bytes the store\'s files (both environments) take on disk.', storeSize);
  registerValue(registry, 'orderflow_store_reopens_total',
    'Times the bulk store was closed and reopened to unmap the pages its writes read.',
    p.storeReopens, 'counter');
  const disk = sampled(registry, () => statfsSync(p.dataDir));
  registerValue(registry, 'orderflow_store_disk_available_bytes',
    'Bytes free to the service on the store\'s file system.', () => {
      const stats = disk();
      return stats.bavail * stats.bsize;
    });
  registerValue(registry, 'orderflow_store_disk_size_bytes',
    'Size of the store\'s file system.', () => {
      const stats = disk();
      return stats.blocks * stats.bsize;
    });
  if (p.redis !== null && p.redisLimits !== null) {
    registerScaleOutMetrics(registry, { link: p.redis, limits: p.redisLimits });
  }
}

/** Bytes on disk (allocated blocks: lmdb's data file is sparse) of the files in `dir`. */
function storeBytes(dir: string): number {
  let bytes = 0;
  for (const name of readdirSync(dir)) bytes += statSync(join(dir, name)).blocks * 512;
  return bytes;
}
