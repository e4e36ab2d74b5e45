// The compact format's fused loop (compact-run.ts) with ReplaySource.next() behind it gives the
// same events, bad-line reports and data-clock stops as decoding every line on its own, at
// any chunk size (lines cut at a chunk's end), with CRLF lines, redefinitions and odd shapes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { rm, writeFile } from 'node:fs/promises';
import type { MarketEvent } from '../../core/messages.js';
import { bookEventOf, tradeEventOf } from '../../actors/feed/lanes.js';
import { COMPACT_HEADER } from '../../actors/feed/replay/compact-format.js';
import { ReplayDecoder } from '../../actors/feed/replay/replay-decoder.js';
import { BOOK, OUT_OF_LINES, ReplaySource, TRADE, type FastLines }
  from '../../actors/feed/replay/replay-source.js';
import { tempDir } from '../helpers/eventually.js';

const ADDRESS = '0x4d177413cfa1ea5d4c5e403091c7e9d1e4178ef2';
const book = (sym: number, ts: number, px: number) =>
  `B,${sym},${ts},2,2,${px},0.5,${px - 1},1.25,${px + 1},0.75,${px + 2},2`;
const LINES = [
  COMPACT_HEADER, 'S,0,BTC', 'S,1,ETH', `A,0,${ADDRESS}`, 'A,1,0xabc',
  'T,0,1000,83621,0.18368,1,954439000001,0,1', 'T,1,1000,3005.5,0.26914,-1,7,,0',
  book(0, 1001, 83620), 'C,0,1002,83622,87753,11048913026.1,97863.6,0.00003936,83622,',
  'T,0,1003,83621.5,1e-3,1,954439000002,1,0', // exponent: the general reader
  'T,0,1004,83621,0.1,1,954439000003,0,1\r', // CRLF: next()
  'T,0,1004.5,83621,0.1,1,954439000004,,', // fractional time: the general reader
  '{"type":"gap","symbol":"ETH","tsMs":1005,"reason":"test"}',
  'A,2,caf\u00e9', 'T,1,1006,3005.6,1234567890.123,1,8,2,', // non-ASCII name, long size
  'T,9,1007,1,1,1,9,,', // undefined symbol index: bad
  'S,0,SOL', 'T,0,1008,204.2,21.08,1,905642000001,,1', book(0, 1009, 204),
  'B,1,1010,1,0,3005,1', // one-sided book: the general reader
  'T,1,9007199254740993,1,1,1,10,,', // time beyond 2^53: the general reader decides
  // Shapes at the fast readers' edges: each either reads as the general reader reads it or
  // leaves the line to it.
  'T,0,1011,123456789,0.000000001,1,0,,', 'T,0,1011,1234567890,12345.678901,-1,11,1,1',
  'T,0,1011,083621,1,1,12,,', 'T,00,1011,1,1,1,13,,', 'T,0,1011,1,1,1,007,,',
  'T,0,1011,1.,1,1,14,,', 'T,0,1011,1,1,+1,15,,', 'T,0,1011,1,1,1,16,,01',
  'T,0,01011,1,1,1,17,,', 'T,0,10110000000000000,1,1,1,18,,', 'T,0,1011,0.0,1,1,19,,',
  'T,0,1011,1,1,1,20,,5', 'T,0,1011,1,1,1,21,0,1,', 'T,0,1011,1,1,1,22',
  'B,0,1012,1,1,1.5,2,1.6,3e2', 'B,0,1012,2,1,1.5,2,1.6,3', 'B,0,1012,1,1,1.5,2,1.6,3,4',
  'A,3,', 'A,03,x', 'A,4,has,comma',
  ...Array.from({ length: 40 }, (_, k) => `T,${k % 2},${2000 + k},${100 + k}.25,0.${k + 1},1,` +
    `${1e15 + k},${k % 3},`),
  book(1, 3000, 3010),
];
const TEXT = LINES.join('\n') + '\n';

type Out = (MarketEvent | string)[];

/** Every line decoded on its own (the object path), as the reference. */
function reference(): Out {
  const decoder = new ReplayDecoder();
  const out: Out = [];
  for (const line of TEXT.split('\n')) {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.length === 0) continue;
    const buf = Buffer.from(text);
    const e = decoder.decode(buf, 0, buf.length, null);
    if (e !== null) out.push(e);
  }
  return out;
}

/** Events the last fused() had from the fused loop itself. */
let fusedEvents = 0;

/**
 * The fused loop, with next() for what it leaves, as the driver runs them: a line past the
 * data clock (`untilMs`, one stage after another) waits, as the driver's pending event, for
 * the next stage.
 */
function fused(file: string, chunkBytes: number, stagesMs: readonly number[] = [Infinity]):
  Out[] {
  fusedEvents = 0;
  const stages: Out[] = [];
  let out: Out = [];
  const source = new ReplaySource(file, () => true, (why) => out.push(why), true, chunkBytes);
  const lines: FastLines = {
    trade: (t) => out.push(tradeEventOf(t.symbol, t)),
    book: (b) => out.push(bookEventOf(b.symbol, b)),
  };
  let pending: MarketEvent | null = null;
  try {
    for (const untilMs of stagesMs) {
      out = [];
      stages.push(out);
      if (pending !== null && pending.tsMs > untilMs) continue;
      if (pending !== null) out.push(pending);
      pending = null;
      for (;;) {
        source.linesLeft = 1_000;
        fusedEvents += source.runFast(lines, untilMs, 1_000);
        const next = source.next();
        if (next === null || next === OUT_OF_LINES) break;
        const e = next === TRADE ? tradeEventOf(source.trade.symbol, source.trade) :
          next === BOOK ? bookEventOf(source.book.symbol, source.book) : next;
        if (e.tsMs > untilMs) {
          pending = e;
          break;
        }
        out.push(e);
      }
    }
    return stages;
  } finally {
    source.close();
  }
}

test('the fused loop gives what line-by-line decoding gives, at any chunk size', async () => {
  const dir = await tempDir();
  const file = join(dir, 'fused.compact');
  try {
    await writeFile(file, TEXT);
    const want = reference();
    assert.ok(want.some((e) => typeof e === 'string'), 'the file has a bad line');
    for (const chunk of [16, 37, 64, 101, 150, 1 << 16]) {
      assert.equal(fused(file, chunk), [want], `chunk ${chunk}`);
      // The fused loop read most common lines, except where a chunk holds one line or less.
      assert.ok(chunk < 100 || fusedEvents > 20, `chunk ${chunk}: ${fusedEvents}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the fused loop stops at the first line past the data clock and leaves it unread',
  async () => {
    const dir = await tempDir();
    const file = join(dir, 'paced.compact');
    try {
      await writeFile(file, TEXT);
      const all = reference();
      // Up to the book of 1010, which waits while the clock stays; then the rest.
      const cut = all.findIndex((e) => typeof e !== 'string' && e.tsMs > 1_009);
      assert.ok(cut > 5);
      for (const chunk of [16, 64, 1 << 16]) {
        assert.equal(fused(file, chunk, [1_009, 1_009, Infinity]),
          [all.slice(0, cut), [], all.slice(cut)], `chunk ${chunk}`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

test.run();
