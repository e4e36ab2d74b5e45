// Recording through the real shard path: a shard worker running the simulator closes 1-minute
// points in market time and sends them to the supervisor on their own message.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { HistoryPoint } from '../../core/history-point.js';
import type { ShardHistory } from '../../actors/shard/protocol.js';
import { silentLogger } from '../../core/logger.js';
import { startActorRuntime } from '../../actors/runtime/supervisor.js';
import { encodeFeedSpec } from '../../actors/shard/shard-params.js';
import { buildCatalogue } from '../../actors/feed/sim/catalogue.js';
import { eventually } from '../helpers/eventually.js';

test('a simulated shard sends minute points, market-time aligned, each minute once', async () => {
  const symbols = buildCatalogue(7).filter((m) => !m.isDelisted).map((m) => m.symbol)
    .slice(0, 2);
  const points: HistoryPoint[] = [];
  const startMs = Date.UTC(2026, 10, 2);
  const runtime = await startActorRuntime({
    shardCount: 1,
    assignment: [symbols],
    shardParams: {
      // 600x: a minute of market time every 0.1 s.
      feed: encodeFeedSpec({ kind: 'sim', seed: 7, speed: 600, startMs }),
      cadenceMs: 100, mailboxCapacity: 10_000, allowCrash: false, logLevel: 'silent',
      budgetBuffer: null, feedAnchorWallMs: Date.now(),
    },
    logger: silentLogger,
    host: {
      onPublish() {},
      onHistory(message: ShardHistory) {
        assert.is(message.type, 'shardHistory');
        points.push(...message.points);
      },
    },
  });
  try {
    await eventually(() => symbols.every((s) => points.filter((p) => p.symbol === s).length >= 3),
      { timeoutMs: 30_000, message: 'three minutes of each pair' });
    for (const symbol of symbols) {
      const times = points.filter((p) => p.symbol === symbol).map((p) => p.tMs);
      assert.ok(times.every((t) => t % 60_000 === 0 && t >= startMs), 'minute-aligned');
      assert.equal(times, [...new Set(times)].sort((a, b) => a - b), 'each minute once, in order');
      const last = points.filter((p) => p.symbol === symbol).at(-1)!;
      assert.ok(last.close !== null && last.close > 0 && last.openInterest !== null);
    }
  } finally {
    await runtime.stop();
  }
});

test.run();
