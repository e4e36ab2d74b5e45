// The compact replay format: exact round trips against the JSON format, conversion both ways,
// bounded tables, bad lines with their messages, the version header, and replay through the
// shard and universe feeds giving the same events as the JSON file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { MarketEvent } from '../../core/messages.js';
import { CompactEncoder } from '../../actors/feed/replay/compact-encoder.js';
import { COMPACT_HEADER } from '../../actors/feed/replay/compact-format.js';
import { convertReplayFile } from '../../actors/feed/replay/convert-replay.js';
import { LineWriter } from '../../actors/feed/replay/line-writer.js';
import { ReplayDecoder } from '../../actors/feed/replay/replay-decoder.js';
import {
  playAll, readAll, simEvents, tradedSymbols, writeEvents,
} from './replay-helpers.js';
import { tempDir } from '../helpers/eventually.js';


/** Decodes lines with one decoder (its tables carry over from line to line). */
function decodeText(text: string) {
  const decoder = new ReplayDecoder();
  return text.split('\n').filter((l) => l.length > 0).map((l) => {
    const buf = Buffer.from(l);
    return decoder.decode(buf, 0, buf.length, null);
  });
}

test('a sim session round-trips exactly in both formats; compact is smaller', async () => {
  const dir = await tempDir();
  try {
    const events = await simEvents(5, 90);
    const types = new Set(events.map((e) => e.type));
    for (const t of ['trade', 'book', 'ctx', 'universe', 'funding', 'wallet']) {
      assert.ok(types.has(t as never), `fixture has ${t}`);
    }
    const json = join(dir, 'a.ndjson');
    const compact = join(dir, 'a.compact');
    assert.is(writeEvents(json, events, 'json'), events.length);
    assert.is(writeEvents(compact, events, 'compact'), events.length);
    assert.equal(readAll(json), { events, bad: [] });
    assert.equal(readAll(compact), { events, bad: [] });
    // Trades, books and ctx take well under half the bytes (universe lines stay JSON).
    const pairEvents = events.filter((e) => ['trade', 'book', 'ctx'].includes(e.type));
    writeEvents(join(dir, 'p.ndjson'), pairEvents, 'json');
    writeEvents(join(dir, 'p.compact'), pairEvents, 'compact');
    const ratio = (await stat(join(dir, 'p.compact'))).size /
      (await stat(join(dir, 'p.ndjson'))).size;
    assert.ok(ratio < 0.5, `compact / json bytes ${ratio}`);
    // Same events, same bytes.
    writeEvents(join(dir, 'b.compact'), events, 'compact');
    assert.ok((await readFile(compact)).equals(await readFile(join(dir, 'b.compact'))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('conversion JSON -> compact -> JSON gives back the same bytes', async () => {
  const dir = await tempDir();
  try {
    const events = await simEvents(5, 30);
    const json = join(dir, 'a.ndjson');
    writeEvents(json, events, 'json');
    const there = convertReplayFile(json, join(dir, 'a.compact'), 'compact');
    assert.equal(there, { events: events.length, badLines: 0, badSamples: [] });
    const back = convertReplayFile(join(dir, 'a.compact'), join(dir, 'b.ndjson'), 'json');
    assert.is(back.events, events.length);
    assert.ok((await readFile(json)).equals(await readFile(join(dir, 'b.ndjson'))));
    // Bad lines are left out, counted and sampled with their line number.
    await writeFile(join(dir, 'bad.ndjson'), `${await readFile(json, 'utf8')}nope\n\n{"x":1}\n`);
    const bad = convertReplayFile(join(dir, 'bad.ndjson'), join(dir, 'c.compact'), 'compact');
    assert.is(bad.events, events.length);
    assert.equal(bad.badSamples, [{ line: events.length + 1, reason: 'not JSON' },
      { line: events.length + 3, reason: 'tsMs: expected epoch milliseconds (was undefined)' }]);
    assert.throws(() => new LineWriter(join(dir, 'x'), { format: 'xml' as never }),
      /format must be one of json, compact, binary \(was "xml"\)/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('odd values round-trip exactly; what compact lines cannot carry stays JSON', () => {
  const trade = { type: 'trade', symbol: 'xyz:TSLA', tsMs: 1770390000253, price: 1.5e-7,
    size: 123456789.12345678, side: -1, tradeId: '1029571178383541', buyer: null,
    seller: '0xab' } as const;
  const events: MarketEvent[] = [
    trade,
    { ...trade, price: 1e21, size: 5e-324, buyer: 'Ünïcode', seller: null },
    { ...trade, symbol: 'A,B' },
    { ...trade, tradeId: 'x,y' },
    { type: 'book', symbol: 'BTC', tsMs: 9, bids: [], asks: [1.25e-9, 3] },
    { type: 'book', symbol: 'BTC', tsMs: 9, bids: new Array(2_002).fill(1), asks: [] },
    { type: 'ctx', symbol: 'BTC', tsMs: 10, markPx: 2, prevDayPx: 0, dayNtlVlm: 0,
      openInterest: 1e-7, fundingRate: -0.0000125, oraclePx: null, midPx: 2.5 },
    { type: 'gap', symbol: 'BTC', tsMs: 11, reason: 'disconnect' },
  ];
  const encoder = new CompactEncoder();
  const lines = events.map((e) => encoder.encode(e));
  assert.ok(lines[0].startsWith('S,0,xyz:TSLA\nA,0,0xab\nT,0,'), lines[0]);
  for (const k of [2, 3, 5, 7]) assert.ok(lines[k].startsWith('{'), lines[k]);
  const decoded = decodeText([COMPACT_HEADER, ...lines].join('\n'));
  assert.equal(decoded.filter((e) => e !== null), events);
});

test('full tables reuse the slot defined longest ago, and the reader follows', () => {
  assert.throws(() => new CompactEncoder(1, 3), /S table capacity must be an integer >= 2/);
  const encoder = new CompactEncoder(2, 3);
  const events: MarketEvent[] = [];
  for (let i = 0; i < 40; i++) {
    events.push({ type: 'trade', symbol: `S${i % 5}`, tsMs: 1 + i, price: 1 + i, size: 1,
      side: 1, tradeId: String(i), buyer: `0x${i % 7}`, seller: `0x${(i * 3) % 11}` });
  }
  const text = [COMPACT_HEADER, ...events.map((e) => encoder.encode(e))].join('\n');
  assert.ok(text.includes('\nS,1,S4\n') && !text.includes('S,2,'), 'two symbol slots');
  assert.not.ok(/A,3,/.test(text), 'three address slots');
  assert.equal(decodeText(text).filter((e) => e !== null), events);
});

test('bad compact lines name the field and what was found', () => {
  const lines = [COMPACT_HEADER, 'S,0,BTC', 'A,0,0xab', 'T,0,5,1,1,1,t1,0,'];
  const bad = (line: string) => String(decodeText([...lines, line].join('\n')).at(-1));
  assert.equal(decodeText(lines.join('\n')).at(-1), { type: 'trade', symbol: 'BTC', tsMs: 5,
    price: 1, size: 1, side: 1, tradeId: 't1', buyer: '0xab', seller: null });
  assert.match(bad('T,0,5,x,1,1,t1,,'),
    /compact trade: price: expected a positive number \(was "x"\)/);
  assert.match(bad('T,0,5,-1,1,1,t1,,'), /price: expected a positive number \(was "-1"\)/);
  assert.match(bad('T,0,5,01,1,1,t1,,'), /price: expected a positive number \(was "01"\)/);
  assert.match(bad('T,0,5,1,0,1,t1,,'), /size: expected a positive number \(was "0"\)/);
  assert.match(bad('T,0,5,1,1,2,t1,,'), /side: expected 1 or -1 \(was "2"\)/);
  assert.match(bad('T,0,0x5,1,1,1,t1,,'), /tsMs: expected epoch milliseconds \(was "0x5"\)/);
  assert.match(bad('T,7,5,1,1,1,t1,,'), /symbol: expected a defined symbol index \(was "7"\)/);
  assert.match(bad('T,0,5,1,1,1,t1,9,'), /buyer: expected a defined address index/);
  assert.match(bad('T,0,5,1,1,1,,,'), /tradeId: expected a non-empty id/);
  assert.match(bad('T,0,5,1,1,1,t1,,,'), /seller: expected .* last/);
  assert.match(bad('T,0,5,1,1,1,t1'), /tradeId/);
  assert.match(bad('B,0,5,1,1,2,1'), /compact book: levels: expected 1 levels a side/);
  assert.match(bad('B,0,5,1,0,2,1,3'), /levels: expected no more fields/);
  assert.match(bad('B,0,5,1,0,2,nan'), /levels: expected positive numbers \(was "nan"\)/);
  assert.match(bad('B,0,5,x,0'), /bidLevels\/askLevels: expected 0\.\.1000/);
  assert.match(bad('C,0,5,0,1,1,1,0,,'), /compact ctx: markPx: expected a positive number/);
  assert.match(bad('C,0,5,1,1,-1,1,0,,'), /dayNtlVlm: expected a number >= 0 \(was "-1"\)/);
  assert.match(bad('C,0,5,1,1,1,1,0,,,'), /midPx: expected the last field/);
  assert.match(bad('S,x,ETH'), /symbol definition: index: expected 0\.\.4095 \(was "x"\)/);
  assert.match(bad('A,1,'), /address definition: expected a non-empty name/);
  assert.match(bad('Q,1'), /expected T, B, C, S or A first/);
  // A bad line changes nothing: the next good line still decodes.
  const after = decodeText([...lines, 'T,0,5,x,1,1,t1,,', 'T,0,6,2,1,-1,t2,,0'].join('\n'));
  assert.equal(after.at(-1), { type: 'trade', symbol: 'BTC', tsMs: 6, price: 2, size: 1,
    side: -1, tradeId: 't2', buyer: null, seller: '0xab' });
});

test('compact lines need a known header version; JSON lines never do', () => {
  const json = '{"type":"gap","symbol":"BTC","tsMs":5,"reason":"x"}';
  const noHeader = decodeText(`S,0,BTC\n${json}`);
  assert.match(String(noHeader[0]), /compact line before a "#orderflow-replay compact v1" header/);
  assert.equal(noHeader[1], JSON.parse(json));
  const future = decodeText(`#orderflow-replay compact v2\nS,0,BTC\n${json}\n# a comment`);
  assert.match(String(future[0]),
    /header: expected "#orderflow-replay compact v1" \(was "#orderflow-replay compact v2"\)/);
  assert.match(String(future[1]), /compact v1/);
  assert.equal(future.slice(2), [JSON.parse(json), null]);
});

test('replay of the compact file feeds shards and universe as the JSON file does', async () => {
  const dir = await tempDir();
  try {
    const events = await simEvents(5, 45);
    writeEvents(join(dir, 'a.ndjson'), events, 'json');
    writeEvents(join(dir, 'a.compact'), events, 'compact');
    const shard = tradedSymbols(events).slice(1, 4);
    const play = (file: string) => playAll(file, shard);
    const fromJson = await play(join(dir, 'a.ndjson'));
    const fromCompact = await play(join(dir, 'a.compact'));
    assert.ok(fromJson.out.length > 100 && fromJson.universe.length > 5);
    assert.equal(fromCompact, fromJson);
    assert.equal(fromCompact.out, events.filter((e) => 'symbol' in e && shard.includes(e.symbol) &&
      ['trade', 'book', 'ctx', 'gap'].includes(e.type)));
    // Bad compact lines in a replay are counted as malformed; the rest plays.
    const text = await readFile(join(dir, 'a.compact'), 'utf8');
    await writeFile(join(dir, 'b.compact'), text.replace(/\nT,/, '\nT,zz\nT,'));
    const withBad = await play(join(dir, 'b.compact'));
    assert.equal(withBad.out, fromJson.out);
    assert.equal(withBad.dropped, { malformed: 1 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
