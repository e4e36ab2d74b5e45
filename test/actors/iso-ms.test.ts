// The feeds' time format (actors/views/encode.ts isoMs) is exactly Date#toISOString: at the
// edges of days, years, the epoch and the Date range, for negative years, fractions and
// random times; and the same errors outside the range.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isoMs } from '../../actors/views/encode.js';
import { seededRandom } from '../helpers/seeded-random.js';

const plain = (ms: number) => new Date(ms).toISOString();

test('isoMs writes what Date#toISOString writes', () => {
  const edges = [0, -0, 1, -1, 999, 1000, 86_399_999, 86_400_000, -86_400_001,
    Date.parse('2026-12-31T23:59:59.999Z'), Date.parse('2027-01-01T00:00:00.000Z'),
    Date.parse('2024-02-29T12:34:56.789Z'), 253_402_300_799_999, 253_402_300_800_000,
    -62_198_755_200_000, -62_198_755_200_001, 8.64e15, -8.64e15, 1.5, -1.5, 1e12 + 0.999];
  for (const ms of edges) assert.is(isoMs(ms), plain(ms), String(ms));
  const random = seededRandom(7);
  for (let i = 0; i < 20_000; i++) {
    const ms = Math.floor((random() - 0.3) * 4e12);
    assert.is(isoMs(ms), plain(ms), String(ms));
  }
});

test('isoMs refuses what Date#toISOString refuses', () => {
  for (const ms of [NaN, Infinity, 8.64e15 + 1, 9e15]) {
    assert.throws(() => isoMs(ms), RangeError, String(ms));
  }
});

test.run();
