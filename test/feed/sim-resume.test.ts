// A simulated pair restored from saved state is warmed up from the state's market time, not over
// the whole warm-up window; a state ahead of the feed's market time or older than a week is
// refused; a live feed without a backfill answers 'gap'.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPairFeed } from '../../actors/feed/pair-feed.js';
import { resumeAnswer, resumeFillMaxMs, resumeFillMs } from '../../actors/feed/sim/sim-resume.js';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import { eventually } from '../helpers/eventually.js';

const START_MS = Date.parse('2026-03-02T12:00:00Z');

test('what a resume fills, and what it refuses', () => {
  assert.is(resumeAnswer(START_MS, START_MS - 90_000), 'fill');
  assert.is(resumeAnswer(START_MS, START_MS + 1), 'refuse', 'a state from the future');
  assert.is(resumeAnswer(START_MS, START_MS - resumeFillMaxMs - 1), 'refuse', 'too old');
  assert.is(resumeAnswer(START_MS, NaN), 'refuse');
  assert.is(resumeFillMs(START_MS, START_MS - 90_000), 60_000, 'from the next whole minute');
  assert.is(resumeFillMs(START_MS, START_MS - 1_000), 0, 'that minute has not begun');
});

test('a resumed symbol is warmed up from its state, the others over the whole window', async () => {
  const clock = new ManualClock(1_000);
  const feed = createPairFeed({ kind: 'sim', seed: 3, speed: 1, startMs: START_MS,
    warmupMs: 6 * 3_600_000 }, { clock, logger: silentLogger, tickMs: 5 });
  assert.is(feed.resumeFrom!('ETH', START_MS + 60_000), 'refuse');
  assert.is(feed.resumeFrom!('BTC', START_MS - 30 * 60_000 - 5_000), 'fill');
  const firstMs = new Map<string, number>();
  feed.setSymbols(['BTC', 'ETH']);
  feed.start((e: MarketEvent) => {
    if ('symbol' in e && !firstMs.has(e.symbol)) firstMs.set(e.symbol, e.tsMs);
  });
  await eventually(() => firstMs.size === 2 && !feed.isWarming!('BTC'));
  await feed.stop();
  assert.is(firstMs.get('BTC'), START_MS - 30 * 60_000, 'BTC from its state (next minute)');
  // A fresh warm-up starts at the UTC midnight before its window, so its days are whole.
  assert.is(firstMs.get('ETH'), Date.parse('2026-03-02T00:00:00Z'),
    'ETH over the whole warm-up, from the midnight before it');
});

test('a live feed without a backfill answers gap, and refuses a state from the future', () => {
  const clock = new ManualClock(START_MS);
  const live = createPairFeed(
    { kind: 'live', wsUrl: 'ws://127.0.0.1:9', infoUrl: 'http://127.0.0.1:9' },
    { clock, logger: silentLogger });
  assert.is(live.resumeFrom!('BTC', START_MS - 60_000), 'gap');
  assert.is(live.resumeFrom!('BTC', START_MS + 60_000), 'refuse');
});

test.run();
