// Replay lines read as bytes: the chunked line reader (boundaries, CRLF, long lines), the
// number and text scanners, and the JSON byte decoder against the string decoder.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { rm, writeFile } from 'node:fs/promises';
import { ByteLineReader } from '../../actors/feed/replay/byte-line-reader.js';
import { latin1Text, scan, scanDecimal } from '../../actors/feed/replay/byte-scan.js';
import { decodeLine, encodeEvent } from '../../actors/feed/replay/event-codec.js';
import { ReplayDecoder } from '../../actors/feed/replay/replay-decoder.js';
import type { MarketEvent } from '../../core/messages.js';
import { tempDir } from '../helpers/eventually.js';

async function linesOf(text: string, chunkBytes: number, lineBytesMax = 1 << 20) {
  const dir = await tempDir();
  const file = join(dir, 'lines.txt');
  await writeFile(file, text);
  const reader = new ByteLineReader(file, chunkBytes, lineBytesMax);
  const out: { text: string; line: number }[] = [];
  try {
    while (reader.next()) {
      out.push({ text: reader.buf.toString('utf8', reader.start, reader.end),
        line: reader.lineNumber });
    }
    return { out, tooLong: reader.tooLong, tooLongLine: reader.tooLongLineNumber };
  } finally {
    reader.close();
    await rm(dir, { recursive: true, force: true });
  }
}

test('the byte reader splits lines across chunks, with CRLF and no final newline', async () => {
  const lines = Array.from({ length: 50 }, (_, i) => 'x'.repeat(i % 37) + `é${i}`);
  const text = lines.join('\r\n') + '\n\n' + 'last';
  for (const chunk of [16, 17, 64, 1 << 16]) {
    const { out, tooLong } = await linesOf(text, chunk);
    assert.equal(out.map((l) => l.text), [...lines, 'last'], `chunk ${chunk}`);
    assert.is(out.at(-1)!.line, 52, 'line numbers count empty lines');
    assert.is(tooLong, 0);
  }
});

test('a line longer than the bound is skipped and counted; the rest is read', async () => {
  const text = `short\n${'y'.repeat(200)}\nafter\n${'z'.repeat(300)}`;
  const { out, tooLong, tooLongLine } = await linesOf(text, 16, 64);
  assert.equal(out.map((l) => l.text), ['short', 'after']);
  assert.is(out[1].line, 3);
  assert.is(tooLong, 2);
  assert.is(tooLongLine, 4);
  // Under the bound the buffer grows instead.
  const grown = await linesOf(`${'y'.repeat(200)}\nok`, 16, 256);
  assert.equal(grown.out.map((l) => l.text.length), [200, 2]);
  assert.throws(() => new ByteLineReader('/nonexistent', 8), /chunkBytes was 8/);
});

test('scanDecimal equals Number() or refuses (-1); latin1Text equals toString', () => {
  const check = (text: string, expected: number | null) => {
    const buf = Buffer.from(text + ',');
    const stop = scanDecimal(buf, 0, buf.length);
    if (expected === null) return assert.is(stop, -1, text);
    assert.is(stop, text.length, text);
    assert.is(scan.value, expected, text);
  };
  check('0', 0);
  check('-12.5', -12.5);
  check('0.00003936', 0.00003936);
  check('1770390000253', 1770390000253);
  check('9007199254740991', 9007199254740991);
  for (const bad of ['', '-', '01', '1.', '.5', '1e5', '1.5E-7', '9007199254740993',
    '0.00000000000000000000001']) check(bad, null);
  let seed = 11;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < 20_000; i++) {
    const x = Number((rand() * 10 ** (rand() * 14 - 7)).toPrecision(1 + (i % 17)));
    const text = String(x);
    const buf = Buffer.from(text);
    const stop = scanDecimal(buf, 0, buf.length);
    if (stop >= 0) assert.is(scan.value, x, text);
    else assert.ok(/e|\d{16,}/.test(text.replace('.', '')), `refused ${text}`);
  }
  const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  for (let len = 0; len <= 40; len++) {
    assert.is(latin1Text(bytes, 200, 200 + Math.min(len, 56)),
      bytes.toString('latin1', 200, 200 + Math.min(len, 56)));
    assert.is(latin1Text(bytes, 48, 48 + len), bytes.toString('latin1', 48, 48 + len));
  }
});

const decodeBytes = (line: string, decoder = new ReplayDecoder()) => {
  const buf = Buffer.from(line);
  return decoder.decode(buf, 0, buf.length, null);
};

test('JSON lines decode as JSON.parse does, or say what is wrong', () => {
  const trade: MarketEvent = { type: 'trade', symbol: 'xyz:TSLA', tsMs: 5, price: 1.5e-7,
    size: 2, side: -1, tradeId: '77', buyer: null, seller: '0xab' };
  const lines = [
    encodeEvent(trade),
    encodeEvent({ ...trade, symbol: 'kPEPE', price: 0.004512, size: 1234.5, buyer: '0xcd' }),
    encodeEvent({ ...trade, symbol: 'Ünï', tradeId: 'ä1' }),
    encodeEvent({ ...trade, symbol: 'A\\"B' }),
    encodeEvent({ ...trade, symbol: 'A\nB' }),
    encodeEvent({ ...trade, tradeId: 'q\\' }),
    encodeEvent({ ...trade, buyer: 'x\ty' }),
    JSON.stringify({ side: 1, symbol: 'BTC', type: 'trade', tsMs: 9, price: 3, size: 1,
      tradeId: 'k', buyer: null, seller: null }),
    encodeEvent({ type: 'book', symbol: 'BTC', tsMs: 7, bids: [2, 1], asks: [3, 1.5] }),
    encodeEvent({ type: 'gap', symbol: 'ETH', tsMs: 8, reason: 'disconnect' }),
    '{"type":"trade","symbol":"BTC","tsMs":5,"price":01,"size":1,"side":1,"tradeId":"1",' +
      '"buyer":null,"seller":null}',
    '{"type":"trade","symbol":"BTC","tsMs":5,"price":1,"size":1,"side":1,"tradeId":"",' +
      '"buyer":null,"seller":null}',
    '{"type":"trade","symbol":"BTC","tsMs":5,"price":1,"size":1,"side":0,"tradeId":"1",' +
      '"buyer":null,"seller":null}',
    '{"type":"trade","symbol":"BTC","tsMs":5,"price":1,"size":1,"side":1,"tradeId":"1",' +
      '"buyer":"","seller":null}',
    '{"type":"trade","symbol":"BTC"', '  {"type":"gap"}', 'nope',
  ];
  for (const line of lines) {
    const expected = decodeLine(line);
    assert.equal(decodeBytes(line), expected, line);
    // A valid line gives what JSON.parse gives, escapes included.
    if (typeof expected !== 'string') assert.equal(expected, JSON.parse(line), line);
  }
  assert.equal(decodeBytes(lines[0]), trade);
  const sideZero = lines.find((l) => l.includes('"side":0'))!;
  assert.match(String(decodeBytes(sideZero)), /side: expected 1 or -1 \(was 0\)/);
});

test('a canonical line the caller does not want is skipped before it is decoded', () => {
  const decoder = new ReplayDecoder();
  const line = Buffer.from(encodeEvent({ type: 'trade', symbol: 'ETH', tsMs: 5, price: 1,
    size: 1, side: 1, tradeId: '1', buyer: null, seller: null }));
  const seen: [string, string | null][] = [];
  const wants = (type: string, symbol: string | null) => {
    seen.push([type, symbol]);
    return symbol === 'BTC';
  };
  assert.is(decoder.decode(line, 0, line.length, wants), null);
  assert.equal(seen, [['trade', 'ETH']]);
  const universe = Buffer.from('{"type":"universe","tsMs":5,"markets":[]}');
  assert.is(decoder.decode(universe, 0, universe.length, wants), null);
  assert.equal(seen[1], ['universe', null]);
});

test.run();
