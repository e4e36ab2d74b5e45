// The feed's and shards' metrics move with what happens, with the real parts: the service on the
// live feed against the local venue server, scraped over HTTP. Frames, lag, events and slices
// count up while trades flow; dropping the venue's connections counts a reconnect and gaps; the
// backfilled hour's 1-minute history points are counted written.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { startService, type Service } from '../../bin/service.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { sampleValue } from '../helpers/exposition.js';
import { startFakeVenue, type FakeVenue } from '../feed/fake-venue.js';

const test = suite('metrics move');
let venue: FakeVenue | undefined;
let service: Service | undefined;
let dataDir = '';

/** Bytes the files of `dir` take on disk (lmdb's data file is sparse). */
function diskBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).blocks * 512, 0);
}

test.before(async () => {
  const dir = await tempDir();
  dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  // Frames stamped as sent: a recorded trade older than the backfill round's minute is in its
  // candles and dropped, so trades stamped with the recording's times could all be dropped.
  venue = await startFakeVenue({ frameIntervalMs: 20, shiftToNow: true, stampAtSend: true });
  service = await startService(resolveConfig({
    port: 0, dataDir: join(dir, 'data'), shards: 1, logLevel: 'silent', limitsEnabled: false,
    feed: 'live', homeWsUrl: venue.wsUrl, homeInfoUrl: venue.infoUrl, backfillHours: 1,
    backfillWaitS: 2,
  }), { logger: silentLogger });
});

test.after(async () => {
  await service?.stop();
  await venue?.close();
});

async function scrape(): Promise<(name: string, labels?: Record<string, string>) => number> {
  const text = await (await fetch(`${service!.baseUrl}/metrics`)).text();
  return (name, labels) => sampleValue(text, name, labels) ?? NaN;
}

test('trades flowing: frames, lag, events, slices and market time count up', async () => {
  const shard = { shard: '0' };
  const moved: Record<string, (read: Awaited<ReturnType<typeof scrape>>) => boolean> = {
    connected: (read) => read('orderflow_feed_connected', shard) === 1,
    trade_frames: (read) =>
      read('orderflow_feed_messages_total', { ...shard, channel: 'trades' }) > 0,
    book_frames: (read) =>
      read('orderflow_feed_messages_total', { ...shard, channel: 'l2Book' }) > 0,
    lag: (read) => read('orderflow_feed_lag_seconds_count', shard) > 0,
    trade_events: (read) => read('orderflow_shard_events_total', { ...shard, type: 'trade' }) > 0,
    slices: (read) => read('orderflow_shard_slice_seconds_count', shard) > 0,
    market_time: (read) => read('orderflow_shard_market_time_seconds', shard) > 0,
  };
  let still: string[] = [];
  await eventually(async () => {
    const read = await scrape();
    still = Object.keys(moved).filter((name) => !moved[name]!(read));
    return still.length === 0;
  }, { timeoutMs: 30_000, message: () => `the feed and shard metrics moved (not: ${still})` });
  const read = await scrape();
  assert.is(read('orderflow_feed_reconnects_total', shard), 0);
  assert.is(read('orderflow_feed_requests_refused_total', { ...shard, bucket: 'ws' }), 0);
  assert.ok(read('orderflow_shard_mailbox_depth', shard) >= 0);
  assert.is(read('orderflow_shard_events_dropped_total', shard), 0);
});

test('the backfilled hour: points written, rollup lag and store size read', async () => {
  await eventually(async () => {
    const read = await scrape();
    return read('orderflow_history_points_written_total') > 0 &&
      read('orderflow_history_rollup_lag_seconds') >= 0 && read('orderflow_store_size_bytes') > 0;
  }, { timeoutMs: 30_000, message: 'history points counted written' });
  const read = await scrape();
  assert.ok(read('orderflow_signals_outcomes_pending') >= 0);
  // The points live in the bulk environment: the size counts both, so it exceeds the main
  // environment's files alone (it is sampled: an earlier sample of those is no more than now).
  await eventually(async () => (await scrape())('orderflow_store_size_bytes') >
    diskBytes(join(dataDir, 'store')), { timeoutMs: 30_000,
    message: 'the store size counts the bulk environment' });
  assert.ok(read('orderflow_store_reopens_total') >= 0, 'the reopens are counted');
});

test('the venue drops the connection: a reconnect and a gap per pair are counted', async () => {
  const shard = { shard: '0' };
  const gapsBefore = (await scrape())('orderflow_shard_events_total', { ...shard, type: 'gap' });
  venue!.dropConnections();
  await eventually(async () => {
    const read = await scrape();
    return read('orderflow_feed_reconnects_total', shard) >= 1 &&
      read('orderflow_shard_events_total', { ...shard, type: 'gap' }) > gapsBefore &&
      read('orderflow_feed_connected', shard) === 1;
  }, { timeoutMs: 30_000, message: 'a reconnect, its gaps and the connection back' });
});

test.run();
