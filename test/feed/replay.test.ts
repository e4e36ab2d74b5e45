// The replay format and feeds: canonical lines, the trade fast path, bad lines, pacing on the
// data's clock, and determinism (same file, same events).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { rm, writeFile } from 'node:fs/promises';
import { ManualClock, systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import { decodeLine, encodeEvent, peekLine } from '../../actors/feed/replay/event-codec.js';
import { LineWriter } from '../../actors/feed/replay/line-writer.js';
import { runSimSession } from '../../actors/feed/sim/sim-session.js';
import { createPairFeed } from '../../actors/feed/pair-feed.js';
import { playPairs, playUniverse } from './replay-helpers.js';
import { eventually, tempDir } from '../helpers/eventually.js';

const START_MS = Date.parse('2026-02-06T15:00:00Z');

async function simFile(dir: string, seconds: number): Promise<{ file: string;
  events: MarketEvent[] }> {
  const file = join(dir, 'sim.ndjson');
  const writer = new LineWriter(file);
  const events: MarketEvent[] = [];
  await runSimSession({ seed: 3, startMs: START_MS, durationMs: seconds * 1000, speed: Infinity,
    clock: systemClock, cadenceMs: 5_000, trackedCount: 8 }, (e) => {
    events.push(e);
    writer.write(e);
  }).done;
  writer.close();
  return { file, events };
}

test('every event type round-trips; trade lines take the fast path with identical results', () => {
  const trade: MarketEvent = { type: 'trade', symbol: 'xyz:TSLA', tsMs: 5, price: 1.5e-7,
    size: 2, side: -1, tradeId: '77', buyer: null, seller: '0xab' };
  const line = encodeEvent(trade);
  assert.equal(decodeLine(line), trade);
  assert.equal(decodeLine(line), JSON.parse(line));
  assert.equal(peekLine(line), { type: 'trade', symbol: 'xyz:TSLA' });
  // Another key order still decodes (slow path) to the same event.
  const shuffled = JSON.stringify({ side: -1, symbol: 'xyz:TSLA', type: 'trade', tsMs: 5,
    price: 1.5e-7, size: 2, tradeId: '77', buyer: null, seller: '0xab' });
  assert.equal(decodeLine(shuffled), trade);
  assert.is(peekLine(shuffled), null);
});

test('the fast path reads numbers exactly as JSON.parse does', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 20_000; i++) {
    const price = Number((rand() * 10 ** (rand() * 12 - 6)).toPrecision(1 + (i % 17)));
    const size = Number((rand() * 1e4).toFixed(i % 9));
    if (!(price > 0 && size > 0)) continue;
    const line = encodeEvent({ type: 'trade', symbol: 'S', tsMs: 1 + i, price, size, side: 1,
      tradeId: String(i), buyer: null, seller: null });
    const fast = decodeLine(line);
    assert.ok(typeof fast !== 'string' && fast.type === 'trade');
    if (typeof fast !== 'string' && fast.type === 'trade') {
      assert.is(fast.price, price, line);
      assert.is(fast.size, size, line);
    }
  }
});

test('bad lines name the field and value', () => {
  const base = { type: 'trade', symbol: 'BTC', tsMs: 5, price: 1, size: 1, side: 1, tradeId: '1',
    buyer: null, seller: null };
  assert.is(decodeLine('{nope'), 'not JSON');
  const error = (fields: object) => String(decodeLine(JSON.stringify({ ...base, ...fields })));
  assert.match(error({ price: -1 }), /price: expected a positive/);
  assert.match(String(decodeLine(JSON.stringify({ ...base, size: 0 }))), /size/);
  assert.match(error({ side: 2 }), /side: expected 1 or -1 \(was 2\)/);
  assert.match(String(decodeLine(JSON.stringify({ ...base, tsMs: 'x' }))), /tsMs/);
  assert.match(String(decodeLine(JSON.stringify({ ...base, type: 'quote' }))), /type/);
  assert.match(String(decodeLine('{"type":"book","symbol":"B","tsMs":1,"bids":[1],"asks":[]}')),
    /bids/);
  const ctx = { type: 'ctx', symbol: 'BTC', tsMs: 5, markPx: 1, prevDayPx: 1, dayNtlVlm: 0,
    openInterest: 0, fundingRate: 0, oraclePx: null, midPx: null };
  const marked = decodeLine(JSON.stringify({ ...ctx, beforeFill: true }));
  assert.ok(typeof marked !== 'string' && marked.type === 'ctx' && marked.beforeFill === true);
  assert.match(String(decodeLine(JSON.stringify({ ...ctx, beforeFill: 'yes' }))),
    /beforeFill: expected true or absent \(was "yes"\)/);
});

test('replay twice at max speed gives the same events as recorded, per shard', async () => {
  const dir = await tempDir();
  try {
    const { file, events } = await simFile(dir, 60);
    const symbols = [...new Set(events.flatMap((e) => e.type === 'trade' ? [e.symbol] : []))];
    assert.ok(symbols.length >= 4);
    const shard = symbols.slice(0, 3);
    const play = () => playPairs(file, shard);
    const a = await play();
    const b = await play();
    assert.equal(a.out, b.out);
    const expected = events.filter((e) => 'symbol' in e && shard.includes(e.symbol) &&
      ['trade', 'book', 'ctx', 'gap'].includes(e.type));
    assert.equal(a.out, expected);
    assert.equal(a.stats.dropped, {});
    const universe = await playUniverse(file);
    const slow = ['universe', 'funding', 'wallet'];
    assert.equal(universe, events.filter((e) => slow.includes(e.type)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/**
 * Trades a(1000), b(2000), late(1500), c(11000) for BTC, played at speed 2 on a manual clock;
 * `write` puts them in a file (and may add a bad line after a).
 */
async function paced(file: string, write: (trades: MarketEvent[]) => Promise<void>,
  malformed: number): Promise<void> {
  const t = (tsMs: number, id: string): MarketEvent => ({ type: 'trade', symbol: 'BTC', tsMs,
    price: 1, size: 1, side: 1, tradeId: id, buyer: null, seller: null });
  await write([t(1_000, '1'), t(2_000, '2'), t(1_500, '3'), t(11_000, '4')]);
  const clock = new ManualClock(0);
  const seen: string[] = [];
  const feed = createPairFeed({ kind: 'replay', file, speed: 2 },
    { clock, logger: silentLogger, tickMs: 2 });
  feed.setSymbols(['BTC']);
  try {
    feed.start((e) => { if (e.type === 'trade') seen.push(e.tradeId); });
    await eventually(() => seen.length === 1);
    clock.advance(500); // data time 2000
    await eventually(() => seen.length === 2);
    clock.advance(4_000); // data time 10000: the last trade (11000) still waits
    await eventually(() => feed.stats().dropped.out_of_order === 1);
    assert.equal(seen, ['1', '2']);
    clock.advance(1_000);
    await eventually(() => seen.length === 3);
    assert.is(feed.stats().dropped.malformed ?? 0, malformed);
  } finally {
    await feed.stop();
  }
}

test('replay paces on the data clock at a finite speed; bad lines are counted', async () => {
  const dir = await tempDir();
  try {
    await paced(join(dir, 'paced.ndjson'), async (trades) => {
      const [first, ...rest] = trades.map(encodeEvent);
      await writeFile(join(dir, 'paced.ndjson'), [first, 'garbage', ...rest].join('\n') + '\n');
    }, 1);
    // The binary format's fused loop stops at the data clock the same way.
    await paced(join(dir, 'paced.bin'), async (trades) => {
      const writer = new LineWriter(join(dir, 'paced.bin'), { format: 'binary' });
      for (const e of trades) writer.write(e);
      writer.close();
    }, 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
