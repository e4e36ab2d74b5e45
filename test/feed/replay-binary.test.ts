// The binary replay format: exact round trips against the JSON format, conversion both ways,
// bounded tables, bad records with their messages, the version header, chunk boundaries, and
// replay through the shard and universe feeds giving the same events as the JSON file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { MarketEvent } from '../../core/messages.js';
import { BinaryEncoder } from '../../actors/feed/replay/binary-encoder.js';
import { binaryHeaderBytes } from '../../actors/feed/replay/binary-format.js';
import { BinaryReplaySource } from '../../actors/feed/replay/binary-source.js';
import { convertReplayFile } from '../../actors/feed/replay/convert-replay.js';
import { BOOK, OUT_OF_LINES, TRADE } from '../../actors/feed/replay/replay-decoder.js';
import { bookEventOf, tradeEventOf } from '../../actors/feed/lanes.js';
import {
  playAll, playPairs, readAll, simEvents, tradedSymbols, writeEvents,
} from './replay-helpers.js';
import { tempDir } from '../helpers/eventually.js';


/** A binary file of `events` encoded with `encoder` (its tables), then `tail` bytes. */
async function binaryFile(file: string, events: readonly MarketEvent[],
  encoder = new BinaryEncoder(), tail = Buffer.alloc(0)): Promise<string> {
  for (const e of events) encoder.encode(e);
  await writeFile(file, Buffer.concat([binaryHeaderBytes(),
    encoder.bytes.subarray(0, encoder.length), tail]));
  return file;
}

const trade = { type: 'trade', symbol: 'BTC', tsMs: 1770390000253, price: 97_000.5, size: 0.25,
  side: -1, tradeId: '1029571178383541', buyer: null, seller: '0xab' } as const;

test('a sim session round-trips exactly; records start at multiples of 8', async () => {
  const dir = await tempDir();
  try {
    const events = await simEvents(7, 90);
    const types = new Set(events.map((e) => e.type));
    for (const t of ['trade', 'book', 'ctx', 'universe', 'funding', 'wallet']) {
      assert.ok(types.has(t as never), `fixture has ${t}`);
    }
    const file = join(dir, 'a.bin');
    assert.is(writeEvents(file, events, 'binary'), events.length);
    assert.equal(readAll(file), { events, bad: [] });
    const bytes = await readFile(file);
    assert.is(bytes.toString('latin1', 0, 28), '#orderflow-replay binary v1\n');
    assert.is(bytes.length % 8, 0);
    // Same events, same bytes.
    writeEvents(join(dir, 'b.bin'), events, 'binary');
    assert.ok(bytes.equals(await readFile(join(dir, 'b.bin'))));
    // Trades and books take less room than their JSON lines.
    const pairEvents = events.filter((e) => ['trade', 'book'].includes(e.type));
    writeEvents(join(dir, 'p.ndjson'), pairEvents, 'json');
    writeEvents(join(dir, 'p.bin'), pairEvents, 'binary');
    const ratio = (await stat(join(dir, 'p.bin'))).size / (await stat(join(dir, 'p.ndjson'))).size;
    assert.ok(ratio < 0.6, `binary / json bytes ${ratio}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('conversion JSON -> binary -> JSON and compact -> binary give back the same events',
  async () => {
    const dir = await tempDir();
    try {
      const events = await simEvents(7, 30);
      const json = join(dir, 'a.ndjson');
      writeEvents(json, events, 'json');
      const there = convertReplayFile(json, join(dir, 'a.bin'), 'binary');
      assert.equal(there, { events: events.length, badLines: 0, badSamples: [] });
      convertReplayFile(join(dir, 'a.bin'), join(dir, 'b.ndjson'), 'json');
      assert.ok((await readFile(json)).equals(await readFile(join(dir, 'b.ndjson'))));
      convertReplayFile(json, join(dir, 'a.compact'), 'compact');
      convertReplayFile(join(dir, 'a.compact'), join(dir, 'c.bin'), 'binary');
      assert.ok((await readFile(join(dir, 'a.bin'))).equals(await readFile(join(dir, 'c.bin'))));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

test('odd values round-trip exactly; what a record cannot carry goes as JSON', async () => {
  const dir = await tempDir();
  try {
    const events: MarketEvent[] = [
      trade,
      { ...trade, symbol: 'xyz:TSLA,Ü', price: 1e21, size: 5e-324, buyer: 'Ünïcode',
        seller: null },
      { ...trade, tradeId: 'x,y' },
      { ...trade, tradeId: '007' },
      { type: 'book', symbol: 'BTC', tsMs: 9, bids: [], asks: [1.25e-9, 3] },
      { type: 'book', symbol: 'BTC', tsMs: 9, bids: [3, 1, 2, 4], asks: [5, 6] },
      { type: 'book', symbol: 'BTC', tsMs: 9, bids: new Array(2_002).fill(1), asks: [] },
      { type: 'ctx', symbol: 'BTC', tsMs: 10, markPx: 2, prevDayPx: 0, dayNtlVlm: 0,
        openInterest: 1e-7, fundingRate: -0.0000125, oraclePx: null, midPx: 2.5 },
      { type: 'ctx', symbol: 'ETH', tsMs: 10, markPx: 2, prevDayPx: 1, dayNtlVlm: 3,
        openInterest: 4, fundingRate: 0, oraclePx: 2.1, midPx: null },
      { type: 'gap', symbol: 'BTC', tsMs: 11, reason: 'disconnect' },
    ];
    assert.equal(readAll(await binaryFile(join(dir, 'odd.bin'), events)),
      { events, bad: [] });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('full tables reuse the slot defined longest ago, and the reader follows', async () => {
  assert.throws(() => new BinaryEncoder(1, 3), /S table capacity must be an integer >= 2/);
  const dir = await tempDir();
  try {
    const events: MarketEvent[] = [];
    for (let i = 0; i < 40; i++) {
      events.push({ ...trade, symbol: `S${i % 5}`, tsMs: 1 + i, price: 1 + i,
        tradeId: String(i), buyer: `0x${i % 7}`, seller: `0x${(i * 3) % 11}` });
    }
    const file = await binaryFile(join(dir, 't.bin'), events, new BinaryEncoder(2, 3));
    assert.equal(readAll(file), { events, bad: [] });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** A record written by hand: the length, kind, u8 at 5, u16 at 6, then `body` (8-aligned). */
function record(kind: string, flags: number, index: number, body: Buffer): Buffer {
  const out = Buffer.alloc(Math.ceil((8 + body.length) / 8) * 8);
  out.writeUInt32LE(4 + body.length, 0);
  out[4] = kind.charCodeAt(0);
  out[5] = flags;
  out.writeUInt16LE(index, 6);
  body.copy(out, 8);
  return out;
}

const doubles = (...xs: number[]) => Buffer.from(new Float64Array(xs).buffer);
const ints = (...xs: number[]) => Buffer.from(new Int32Array(xs).buffer);
const u16s = (...xs: number[]) => Buffer.from(new Uint16Array(xs).buffer);

test('bad records name the field and what was found; the next record still reads',
  async () => {
    const dir = await tempDir();
    try {
      const good = (id: number) => record('T', 1, 0, Buffer.concat([doubles(5, 2, 1, id),
        ints(-1, 0)]));
      const bad = [
        record('T', 1, 0, Buffer.concat([doubles(5, -1, 1, 1), ints(-1, -1)])),
        record('T', 1, 0, Buffer.concat([doubles(5, NaN, 1, 1), ints(-1, -1)])),
        record('T', 1, 0, Buffer.concat([doubles(5, 1, 0, 1), ints(-1, -1)])),
        record('T', 2, 0, Buffer.concat([doubles(5, 1, 1, 1), ints(-1, -1)])),
        record('T', 1, 0, Buffer.concat([doubles(0, 1, 1, 1), ints(-1, -1)])),
        record('T', 1, 0, Buffer.concat([doubles(5, 1, 1, 1.5), ints(-1, -1)])),
        record('T', 1, 7, Buffer.concat([doubles(5, 1, 1, 1), ints(-1, -1)])),
        record('T', 1, 0, Buffer.concat([doubles(5, 1, 1, 1), ints(9, -1)])),
        record('T', 1, 0, Buffer.concat([doubles(5, 1, 1, 1), ints(-1, -2)])),
        record('T', 1, 0, doubles(5, 1, 1)),
        record('B', 0, 0, Buffer.concat([doubles(5), u16s(1, 0, 0, 0), doubles(2, NaN)])),
        record('B', 0, 0, Buffer.concat([doubles(5), u16s(2, 0, 0, 0), doubles(2, 1)])),
        record('B', 0, 0, Buffer.concat([doubles(5), u16s(1001, 0, 0, 0)])),
        record('C', 0, 0, Buffer.concat([doubles(5, 0, 1, 1, 1, 0, 0, 0)])),
        record('C', 0, 0, Buffer.concat([doubles(5, 1, 1, -1, 1, 0, 0, 0)])),
        record('S', 0, 4096, Buffer.from('ETH')),
        record('A', 0, 1, Buffer.alloc(0)),
        record('Q', 0, 0, Buffer.alloc(8)),
        record('J', 0, 0, Buffer.from('{"type":"gap"}')),
      ];
      const file = join(dir, 'bad.bin');
      await writeFile(file, Buffer.concat([binaryHeaderBytes(), record('S', 0, 0,
        Buffer.from('BTC')), record('A', 0, 0, Buffer.from('0xab')), good(1), ...bad,
      good(2)]));
      const { events, bad: reasons } = readAll(file);
      const ok = { type: 'trade', symbol: 'BTC', tsMs: 5, price: 2, size: 1, side: 1,
        buyer: null, seller: '0xab' };
      assert.equal(events, [{ ...ok, tradeId: '1' }, { ...ok, tradeId: '2' }]);
      const expected = [
        /^4: binary trade: price: expected a positive number \(was -1\)$/,
        /^5: binary trade: price: expected a positive number \(was NaN\)$/,
        /^6: binary trade: size: expected a positive number \(was 0\)$/,
        /^7: binary trade: side: expected 1 or -1 \(was 2\)$/,
        /^8: binary trade: tsMs: expected epoch milliseconds \(was 0\)$/,
        /^9: binary trade: tradeId: expected an integer id \(was 1\.5\)$/,
        /^10: binary trade: symbol: expected a defined symbol index \(was 7\)$/,
        /^11: binary trade: buyer: expected a defined address index or -1 \(was 9\)$/,
        /^12: binary trade: seller: expected a defined address index or -1 \(was -2\)$/,
        /^13: binary trade: length: expected 44 bytes \(was 28\)$/,
        /^14: binary book: levels: expected positive numbers \(was NaN\)$/,
        /^15: binary book: length: expected 52 bytes for its levels \(was 36\)$/,
        /^16: binary book: bidLevels\/askLevels: expected 0\.\.1000 \(was 1001\/0\)$/,
        /^17: binary ctx: markPx: expected a positive number \(was 0\)$/,
        /^18: binary ctx: dayNtlVlm: expected a number >= 0 \(was -1\)$/,
        /^19: binary symbol definition: index: expected 0\.\.4095 \(was 4096\)$/,
        /^20: binary address definition: expected an index and a name$/,
        /^21: binary record: unknown kind 81$/,
        /^22: tsMs: expected epoch milliseconds/,
      ];
      assert.is(reasons.length, expected.length, reasons.join('\n'));
      expected.forEach((re, k) => assert.match(reasons[k], re));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

test('a cut or corrupt file ends with a message; another version is refused', async () => {
  const dir = await tempDir();
  try {
    const events = [trade, { ...trade, tsMs: trade.tsMs + 1, tradeId: '2' }];
    // Cut inside the last record: the first trade (and its definitions) still read.
    const whole = await readFile(await binaryFile(join(dir, 'w.bin'), events));
    await writeFile(join(dir, 'cut.bin'), whole.subarray(0, whole.length - 10));
    const cut = readAll(join(dir, 'cut.bin'));
    assert.equal(cut.events, [trade]);
    assert.equal(cut.bad,
      ['4: binary record 4: cut short by the end of the file (34 of 44 bytes)']);
    await writeFile(join(dir, 'cut2.bin'), whole.subarray(0, whole.length - 46));
    assert.match(readAll(join(dir, 'cut2.bin')).bad[0], /\(2 bytes of its length\)$/);
    // A length no record has: the rest of the file is skipped, with the reason.
    const junk = Buffer.alloc(16, 0xff);
    const corrupt = readAll(await binaryFile(join(dir, 'c.bin'), [trade], undefined, junk));
    assert.equal(corrupt.events, [trade]);
    assert.match(corrupt.bad[0], new RegExp('^4: binary record 4: length 4294967295 is out of ' +
      'range \\(1\\.\\.67108864\\); the rest of the file is skipped$'));
    // A header of another version: nothing is read, and the reader says why.
    const future = Buffer.from(whole);
    future.write('2', 26, 'latin1');
    await writeFile(join(dir, 'v2.bin'), future);
    const v2 = readAll(join(dir, 'v2.bin'));
    assert.equal(v2.events, []);
    assert.match(v2.bad[0], new RegExp('header: expected "#orderflow-replay binary v1" ' +
      '\\(was "#orderflow-replay binary v2"\\); the file is skipped'));
    // An empty file (header only) holds no events and no complaint.
    await writeFile(join(dir, 'e.bin'), binaryHeaderBytes());
    assert.equal(readAll(join(dir, 'e.bin')), { events: [], bad: [] });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the fused loop gives what next() gives, across any chunk boundary', async () => {
  const dir = await tempDir();
  try {
    const events = await simEvents(7, 20);
    const file = join(dir, 'f.bin');
    writeEvents(file, events, 'binary');
    /** The file's events read with `chunkBytes`, trades and books through runFast. */
    const read = (chunkBytes: number) => {
      const out: MarketEvent[] = [];
      const source = new BinaryReplaySource(file, () => true, (why) => out.push(why as never),
        true, chunkBytes);
      const lines = {
        trade: (t: typeof source.trade) => out.push(tradeEventOf(t.symbol, t)),
        book: (b: typeof source.book) => out.push(bookEventOf(b.symbol, b)),
      };
      for (;;) {
        source.linesLeft = 50;
        // The clock stops the fused loop mid-file too: the rest comes through next().
        source.runFast(lines, events[(out.length * 7) % events.length].tsMs, 30);
        const next = source.next();
        if (next === null) break;
        if (next === OUT_OF_LINES) continue;
        if (next === TRADE) lines.trade(source.trade);
        else if (next === BOOK) lines.book(source.book);
        else out.push(next);
      }
      source.close();
      return out;
    };
    for (const chunk of [64, 72, 1_000, 1 << 20]) assert.equal(read(chunk), events, `${chunk}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('replay of the binary file feeds shards and universe as the JSON file does', async () => {
  const dir = await tempDir();
  try {
    const events = await simEvents(7, 45);
    writeEvents(join(dir, 'a.ndjson'), events, 'json');
    writeEvents(join(dir, 'a.bin'), events, 'binary');
    const shard = tradedSymbols(events).slice(1, 4);
    const play = (file: string) => playAll(file, shard);
    const fromJson = await play(join(dir, 'a.ndjson'));
    const fromBinary = await play(join(dir, 'a.bin'));
    assert.ok(fromJson.out.length > 100 && fromJson.universe.length > 5);
    assert.equal(fromBinary, fromJson);
    // A duplicate trade in the file is dropped by the same ingest checks.
    const firstTrade = events.find((e) => e.type === 'trade' && shard.includes(e.symbol))!;
    const again = join(dir, 'dup.bin');
    writeEvents(again, [...events, { ...firstTrade, tsMs: events.at(-1)!.tsMs }], 'binary');
    const dup = await playPairs(again, shard);
    assert.equal(dup.out, fromJson.out);
    assert.equal(dup.stats.dropped, { duplicate_trade: 1 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
