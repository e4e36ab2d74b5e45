// The simulator's pacer: a shard that has caught up with market time sleeps until its next tick,
// and one that is behind catches up in event-loop turns, a capped step at a time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock, type Clock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import { createPairFeed } from '../../actors/feed/pair-feed.js';
import { eventually } from '../helpers/eventually.js';

const START_MS = Date.parse('2026-02-06T15:00:00Z');
/** Longer than any test: a step that waits for the tick does not come back here. */
const tickMs = 3_600_000;
const symbols = ['BTC', 'ETH', 'SOL', 'HYPE'];

/** Wall time that passes while the shard works: each reading is a millisecond on. */
class BusyClock implements Clock {
  private ms = 1_000;
  nowMs(): number {
    return this.ms++;
  }
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

function pacedFeed(clock: Clock) {
  const reached: (number | null)[] = [];
  const events: MarketEvent[] = [];
  const feed = createPairFeed({ kind: 'sim', seed: 7, speed: 1, startMs: START_MS },
    // Kept to a bound: a pacer that spins would otherwise fill the heap before a test fails.
    { clock, logger: silentLogger, tickMs,
      onPaced: (ms) => { if (reached.length < 1_000) reached.push(ms); } });
  feed.setSymbols(symbols);
  return { feed, reached, events, start: () => feed.start((e) => events.push(e)) };
}

test('at real speed a caught-up shard waits for its tick instead of spinning', async () => {
  const { feed, reached, start } = pacedFeed(new BusyClock());
  start();
  try {
    await turns(50);
    // One step to where the clock was; the milliseconds the turns took wait for the next tick.
    assert.is(reached.length, 1, `paced steps in 50 turns: ${reached.length}`);
    assert.ok(reached[0]! > START_MS && reached[0]! < START_MS + 100, `reached ${reached[0]}`);
  } finally {
    await feed.stop();
  }
});

test('a shard behind market time catches up in turns, a capped step each, then waits', async () => {
  const clock = new ManualClock(1_000);
  const { feed, reached, events, start } = pacedFeed(clock);
  clock.advance(60_000);
  start();
  try {
    await eventually(() => reached.at(-1) === START_MS + 60_000, { timeoutMs: 2_000 });
    // 5 s of market time a step: twelve turns for the minute, none after it.
    assert.equal(reached, Array.from({ length: 12 }, (_, i) => START_MS + (i + 1) * 5_000));
    await turns(50);
    assert.is(reached.length, 12);
    const trades = events.filter((e) => e.type === 'trade');
    assert.ok(trades.length > 0 && events.every((e) => e.tsMs <= START_MS + 60_000));
    // Quiet or busy, every pair traded in the minute it was stepped through.
    assert.equal(new Set(trades.map((e) => 'symbol' in e && e.symbol)), new Set(symbols));
  } finally {
    await feed.stop();
  }
});

test.run();
