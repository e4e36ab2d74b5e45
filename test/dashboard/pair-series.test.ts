// The Pair page's series (web/src/pair-series.ts): the history pages each range reads (All:
// every stored hour, then the 7 days of minutes in pages the API allows), how they join, how
// the points are spaced, and the CVD made continuous across the UTC days.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { backPages, continuousCvd, joined, MINUTES_KEPT, PAGE_MAX, pagesFor, RANGES, spacings }
  from '../../web/src/pair-series.js';

const series = suite('pair series');

series('each range reads its own resolution; All: every hour, then 7 days of minutes', () => {
  const spans = { '1m': 60, '5m': 300, '1h': 3_600 } as const;
  for (const [label, seconds] of RANGES) {
    const pages = pagesFor(seconds);
    const reach = Math.max(...pages.map((p) => p.limit * spans[p.interval]));
    if (seconds > 0) assert.ok(reach >= seconds, `${label} reaches ${reach} s`);
    else assert.ok(reach > 180 * 86_400, `All reaches ${reach / 86_400} days`);
    // Each request within the API's largest page.
    for (const p of pages) assert.ok(backPages(p.limit).every((n) => n <= PAGE_MAX), label);
    // A range's own page stays a few hundred points: each candle is pixels wide.
    if (seconds > 0) assert.ok(pages.every((p) => p.limit <= 300), `${label}: ${pages[0]!.limit}`);
  }
  assert.equal(pagesFor(0), [{ interval: '1h', limit: 5_000 }, { interval: '1m', limit: 10_080 }]);
  assert.is(MINUTES_KEPT * 60, 7 * 86_400);
});

series('a page above the API\'s largest is read back from now in pages that sum to it', () => {
  assert.equal(backPages(10_080), [5_000, 5_000, 80]);
  assert.equal(backPages(5_000), [5_000]);
  assert.equal(backPages(241), [241]);
});

series('spacings: each step, how often and where, widest first', () => {
  const hours = [0, 3_600, 7_200];
  const minutes = [7_260, 7_320, 7_380, 7_440];
  assert.equal(spacings([...hours, ...minutes]), [
    { stepSeconds: 3_600, count: 2, fromSeconds: 0, toSeconds: 7_200 },
    { stepSeconds: 60, count: 4, fromSeconds: 7_200, toSeconds: 7_440 }]);
  assert.equal(spacings([5]), []);
});

series('the finer page takes over where it begins', () => {
  const hours = [0, 3_600, 7_200, 10_800].map((t) => ({ t, close: 1 }));
  const minutes = [9_000, 9_300, 9_600].map((t) => ({ t, close: 2 }));
  assert.equal(joined(hours, minutes).map((p) => p.t), [0, 3_600, 7_200, 9_000, 9_300, 9_600]);
  assert.equal(joined(hours, []), hours);
});

series('continuous CVD adds each earlier day\'s last value', () => {
  const day = 86_400;
  const points = [{ t: day - 120, cvd: 5 }, { t: day - 60, cvd: 7 }, { t: day, cvd: -1 },
    { t: day + 60, cvd: 2, close: 3 }, { t: 2 * day, cvd: null }, { t: 2 * day + 60, cvd: 4 }];
  assert.equal(continuousCvd(points).map((p) => p.cvd), [5, 7, 6, 9, null, 13]);
  assert.is(continuousCvd(points)[3]!.close, 3);
});

series.run();
