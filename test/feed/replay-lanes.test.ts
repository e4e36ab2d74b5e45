// The replay feed's fast path (trades and books as fields to a shard's lanes) delivers exactly
// what its object path delivers: same events in the same order per pair, same checks (duplicates,
// time going back, bad lines), same counters, and it follows a symbol index the file redefines.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { rm, writeFile } from 'node:fs/promises';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import type { FeedStats, IngestSink, PairLane } from '../../actors/feed/feed-types.js';
import { bookEventOf, tradeEventOf } from '../../actors/feed/lanes.js';
import { createReplayPairFeed } from '../../actors/feed/replay/replay-pair-feed.js';
import { COMPACT_HEADER } from '../../actors/feed/replay/compact-format.js';
import { convertReplayFile } from '../../actors/feed/replay/convert-replay.js';
import { eventually, tempDir } from '../helpers/eventually.js';

const T0 = 1_770_390_000_000;
const LINES = [
  COMPACT_HEADER,
  'S,0,BTC', 'S,1,ETH', 'S,2,DOGE', 'A,0,0xaa', 'A,1,0xbb',
  `T,0,${T0},100.5,0.25,1,1113244137548134,0,1`,
  `T,1,${T0 + 1},2000,1,-1,7,,1`,
  `T,2,${T0 + 1},0.1,50,1,8,0,1`,
  `T,0,${T0 + 5},100.6,0.5,-1,1113244137548134,1,0`,
  `T,0,${T0 - 1},100.4,0.5,-1,9,1,0`,
  `T,0,${T0 + 6},100.7,0.1,1,x-1,0,`,
  `T,0,${T0 + 7},100.7,0.1,1,x-1,0,`,
  `T,0,${T0 + 8},100.7,0.1,1,007,0,`,
  `T,0,${T0 + 8},100.8,0.1,1,7,0,`,
  `B,0,${T0 + 9},1,1,100.5,3,100.9,4`,
  `B,0,${T0 + 8},1,1,100.4,3,100.8,4`, `B,1,${T0 + 9},1,1,x,3,2001,1`,
  `B,2,${T0 + 9},1,1,0.1,3,0.2,4`,
  `C,1,${T0 + 9},2001,1990,5000000,100,0.0001,2001,2001`,
  `T,0,${T0 + 10},bad,0.1,1,11,0,`,
  '{"type":"gap","symbol":"ETH","tsMs":' + (T0 + 11) + ',"reason":"disconnect"}',
  'S,0,DOGE', `T,0,${T0 + 12},0.11,10,1,12,0,1`,
  'S,0,BTC', `T,0,${T0 + 13},101,1,1,13,0,1`,
  'S,3,SOL', `T,3,${T0 + 14},150,1,1,14,,`,
];

async function play(file: string, sink: 'function' | 'lanes'):
  Promise<{ out: Record<string, MarketEvent[]>; stats: FeedStats }> {
  const out: Record<string, MarketEvent[]> = {};
  const push = (e: MarketEvent) => {
    if ('symbol' in e) (out[e.symbol] ??= []).push(e);
  };
  let ended = false;
  const feed = createReplayPairFeed({ file, speed: Infinity, clock: systemClock,
    logger: silentLogger, onEnd: () => { ended = true; } });
  feed.setSymbols(['BTC', 'ETH', 'SOL']);
  const lanes: IngestSink = {
    lane: (symbol): PairLane => ({ trade: (t) => push(tradeEventOf(symbol, t)),
      book: (b) => push(bookEventOf(symbol, b)), event: push }),
  };
  feed.start(sink === 'function' ? push : lanes);
  await eventually(() => ended);
  await feed.stop();
  return { out, stats: feed.stats() };
}

test('lanes get what a function sink gets, checks and counters included', async () => {
  const dir = await tempDir('lanes');
  const file = join(dir, 'mixed.compact');
  try {
    await writeFile(file, LINES.join('\n') + '\n');
    const objects = await play(file, 'function');
    const fields = await play(file, 'lanes');
    assert.equal(fields.out, objects.out);
    assert.equal(fields.stats, objects.stats);
    const btcIds = objects.out.BTC.map((e) => e.type === 'trade' ? e.tradeId : e.type);
    // Duplicate 1113244137548134 and the stale tid 9 are refused; text ids dedupe as text;
    // "007" is not the number 7 (a text id), and 7 is new for BTC (ETH's 7 is another pair).
    assert.equal(btcIds, ['1113244137548134', 'x-1', '007', '7', 'book', '13']);
    assert.equal(objects.out.SOL.map((e) => e.tsMs), [T0 + 14]);
    assert.is(objects.out.DOGE, undefined, 'unfollowed symbol (even at a reused index) skipped');
    assert.equal(objects.out.ETH.map((e) => e.type), ['trade', 'ctx', 'gap']);
    // The stale BTC book is refused too; ETH's bad book is malformed; DOGE's is skipped.
    assert.equal(objects.stats.dropped, { duplicate_trade: 2, out_of_order: 2, malformed: 2 });
    assert.is(objects.stats.eventsByType.trade, 7);
    assert.is(objects.stats.events, 10);
    // The same events in the binary format (the malformed lines are left out by conversion).
    const binary = join(dir, 'mixed.bin');
    convertReplayFile(file, binary, 'binary');
    const binaryObjects = await play(binary, 'function');
    const binaryFields = await play(binary, 'lanes');
    assert.equal(binaryFields.out, binaryObjects.out);
    assert.equal(binaryFields.out, objects.out);
    assert.equal(binaryFields.stats, { ...objects.stats,
      dropped: { duplicate_trade: 2, out_of_order: 2 } });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
