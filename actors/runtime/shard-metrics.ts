// Metrics of each shard's feed and mailboxes, read at scrape time from what the workers write
// into their shared buffer (actors/shard/shard-meters.ts). Label values are shard ids (bounded
// by shardsMax), the venue's channels, event types and budget buckets: all fixed lists.
import type { Registry } from 'prom-client';
import { registerCollected, type Sample } from '../../core/metrics/collected.js';
import { feedChannels } from '../feed/feed-meters.js';
import { budgetBuckets, eventTypes, type ShardMeters } from '../shard/shard-meters.js';

/** `meters` is read at each scrape (the runtime starts after the front). */
export function registerShardMetrics(registry: Registry,
  meters: () => readonly ShardMeters[]): void {
  const each = (name: string, help: string, type: 'counter' | 'gauge' | 'histogram',
    read: (m: ShardMeters, out: Sample[], shard: number) => void) => registerCollected(registry, {
    name, help, type, read: (out) => { for (const m of meters()) read(m, out, m.shardId); },
  });
  const value = (name: string, help: string, type: 'counter' | 'gauge',
    of: (m: ShardMeters) => number) => each(name, help, type, (m, out, shard) => {
    const v = of(m);
    if (!Number.isNaN(v)) out.push({ labels: { shard }, value: v });
  });
  value('orderflow_feed_connected', '1 while the shard\'s feed is connected (live: to the ' +
    'venue; simulator and replay: running).', 'gauge', (m) => m.connected);
  value('orderflow_feed_reconnects_total', 'Reconnects of the shard\'s feed to the venue.',
    'counter', (m) => m.reconnects);
  each('orderflow_feed_messages_total', 'Venue WebSocket frames received, by channel.', 'counter',
    (m, out, shard) => feedChannels.forEach((channel, i) =>
      out.push({ labels: { shard, channel }, value: m.frames(i) })));
  each('orderflow_feed_lag_seconds', 'Trades and books from their venue time to their arrival.',
    'histogram', (m, out, shard) => m.lagHistogram.read(out, 'orderflow_feed_lag_seconds',
      { shard }));
  each('orderflow_feed_requests_waiting', 'Venue requests waiting for the request budget now ' +
    '(rest: info requests, ws: messages to send).', 'gauge', (m, out, shard) => {
    for (const bucket of budgetBuckets) {
      out.push({ labels: { shard, bucket }, value: m.waitingNow(bucket) });
    }
  });
  each('orderflow_feed_requests_refused_total', 'Venue requests refused for want of budget ' +
    '(too many waiting, or a full send queue).', 'counter', (m, out, shard) => {
    for (const bucket of budgetBuckets) {
      out.push({ labels: { shard, bucket }, value: m.refusedTotal(bucket) });
    }
  });
  value('orderflow_shard_mailbox_depth', 'Events queued in the shard\'s pair mailboxes.',
    'gauge', (m) => m.mailboxDepth);
  each('orderflow_shard_events_total', 'Events the shard\'s feed handed to its pairs, by type.',
    'counter', (m, out, shard) => eventTypes.forEach((type, i) =>
      out.push({ labels: { shard, type }, value: m.eventsIn(i) })));
  value('orderflow_shard_events_dropped_total', 'Events dropped by full pair mailboxes ' +
    '(oldest first).', 'counter', (m) => m.dropped);
  each('orderflow_shard_slice_seconds', 'One pair\'s drain of its mailbox (a slice of the ' +
    'shard\'s work).', 'histogram', (m, out, shard) => m.sliceHistogram.read(out,
    'orderflow_shard_slice_seconds', { shard }));
  value('orderflow_shard_market_time_seconds', 'Market time of the newest event the shard\'s ' +
    'feed handed on; its rate is the speed achieved (replay, simulator).', 'gauge',
  (m) => m.marketMs / 1000);
}
