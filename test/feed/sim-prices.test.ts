// Simulated prices of the right order: every listed pair is anchored on the venue's recorded mark
// (test/fixtures/venue metaAndAssetCtxs of 2026-02-06) and stays within a plausible band of it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { buildCatalogue } from '../../actors/feed/sim/catalogue.js';
import { referencePx } from '../../actors/feed/sim/market-model.js';
import { PairSimulator } from '../../actors/feed/sim/pair-sim.js';
import { isRecordedMark } from '../../actors/feed/sim/reference-prices.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';

const DAY_MS = 86_400_000;
const START_MS = Date.parse('2026-02-06T12:00:00Z');
/** A factor of 3 either way: a week of a 7.5 %-a-day market is ~20 % (1 sd), ln 3 is 1.1. */
const BAND = Math.log(3);

function recordedMarks(): Map<string, number> {
  const marks = new Map<string, number>();
  // The xyz dex's names carry their prefix already (`xyz:TSLA`).
  for (const file of ['main', 'xyz']) {
    const path = new URL(`../fixtures/venue/hl_metaAndAssetCtxs_${file}_2026-02-06.json`,
      import.meta.url);
    const [meta, ctxs] = JSON.parse(readFileSync(path, 'utf8')) as
      [{ universe: { name: string }[] }, { markPx: string }[]];
    meta.universe.forEach((u, i) => marks.set(u.name, Number(ctxs[i].markPx)));
  }
  return marks;
}

test('every pair the recording lists starts from its recorded mark (APT 1.06, GALA 0.004)', () => {
  const marks = recordedMarks();
  const markets = buildCatalogue(42);
  let recorded = 0;
  for (const m of markets) {
    const ticker = m.symbol.includes(':') ? `xyz:${m.symbol.split(':')[1]}` : m.symbol;
    const mark = marks.get(ticker);
    assert.is(isRecordedMark(m.symbol), mark !== undefined, m.symbol);
    if (mark === undefined) continue;
    recorded++;
    assert.is(m.basePx, mark, m.symbol);
  }
  assert.ok(recorded >= markets.length - 15, `${recorded} of ${markets.length} recorded`);
  const apt = markets.find((m) => m.symbol === 'APT')!;
  assert.ok(apt.basePx > 0.5 && apt.basePx < 2, `APT ${apt.basePx}`);
});

test('every listed pair stays within a factor of 3 of its reference over a simulated week', () => {
  for (const informedShare of [0.8, 0]) {
    for (const market of buildCatalogue(42, informedShare)) {
      let worst = 0;
      for (let t = START_MS; t <= START_MS + 7 * DAY_MS; t += 5 * 60_000) {
        worst = Math.max(worst, Math.abs(Math.log(referencePx(42, market, t) / market.basePx)));
      }
      assert.ok(worst < BAND, `${market.symbol}: ${Math.exp(worst).toFixed(2)}x its reference`);
    }
  }
});

test('a world anchored at any date keeps every listed pair within the band over its week', () => {
  // The running service anchors at its data dir's first warm-up start (persistence/sim-anchor.ts):
  // a path anchored in February would have walked ten months by November.
  const anchorMs = Date.parse('2026-11-22T00:00:00Z');
  const world = simWorld(42, undefined, undefined, anchorMs);
  assert.is(world.anchorMs, anchorMs);
  for (const market of world.markets) {
    if (market.isDelisted) continue;
    let worst = 0;
    for (let t = anchorMs; t <= anchorMs + 7 * DAY_MS; t += 15 * 60_000) {
      worst = Math.max(worst, Math.abs(Math.log(referencePx(42, market, t) / market.basePx)));
    }
    assert.ok(worst < BAND, `${market.symbol}: ${Math.exp(worst).toFixed(2)}x its reference`);
  }
});

test('the tick world too: the pairs once 30-7,500x off trade within the band for two days', () => {
  const world = simWorld(42);
  for (const symbol of ['APT', 'UNI', 'ARB', 'TIA', 'LDO', 'GALA', 'PURR']) {
    const market = world.bySymbol.get(symbol)!;
    const sim = new PairSimulator(42, market, world.picker, START_MS);
    let worst = 0;
    let trades = 0;
    sim.advanceTo(START_MS + 2 * DAY_MS, (e) => {
      if (e.type !== 'trade') return;
      trades++;
      worst = Math.max(worst, Math.abs(Math.log(e.price / market.basePx)));
    });
    assert.ok(trades > 1_000, `${symbol}: ${trades} trades`);
    assert.ok(worst < BAND, `${symbol}: a print ${Math.exp(worst).toFixed(2)}x its reference`);
  }
});

test.run();
