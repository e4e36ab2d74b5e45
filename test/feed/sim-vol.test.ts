// Majors move like majors: over a simulated week BTC's and ETH's realised daily volatility sits
// in a band around their documented reference (actors/feed/sim/reference-vols.ts), below the
// alts', in both worlds and for every seed tried.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildCatalogue, type SimMarket } from '../../actors/feed/sim/catalogue.js';
import { referencePx } from '../../actors/feed/sim/market-model.js';

const DAY_MS = 86_400_000;
const STEP_MS = 4 * 3_600_000;
const START_MS = Date.parse('2026-02-06T12:00:00Z');

/** Realised daily volatility from a week's 4 h log returns (42 of them): sqrt(sum r^2 / 7). */
function weekVol(seed: number, market: SimMarket): number {
  let squares = 0;
  let previous = Math.log(referencePx(seed, market, START_MS));
  for (let t = START_MS + STEP_MS; t <= START_MS + 7 * DAY_MS; t += STEP_MS) {
    const now = Math.log(referencePx(seed, market, t));
    squares += (now - previous) ** 2;
    previous = now;
  }
  return Math.sqrt(squares / 7);
}

// Real BTC's daily moves are about 2 % (40 % a year), ETH's about 3 %; an alt drawn from 2.5-7.5
// % a day lands outside these bands for most seeds. The bands leave room for a week's sampling.
const BANDS: Readonly<Record<string, readonly [number, number]>> = {
  BTC: [0.012, 0.032], ETH: [0.018, 0.045],
};

test('BTC and ETH: realised daily vol over a simulated week within their band, below alts', () => {
  for (const informedShare of [0.8, 0]) {
    for (let seed = 1; seed <= 12; seed++) {
      const markets = buildCatalogue(seed, informedShare);
      const alts = markets.slice(2, 20).filter((m) => !['BNB'].includes(m.symbol))
        .map((m) => weekVol(seed, m)).sort((a, b) => a - b);
      const altMedian = alts[Math.floor(alts.length / 2)];
      for (const [symbol, [low, high]] of Object.entries(BANDS)) {
        const vol = weekVol(seed, markets.find((m) => m.symbol === symbol)!);
        const what = `${symbol} seed ${seed} informed ${informedShare}: ` +
          `${(vol * 100).toFixed(2)} %`;
        assert.ok(vol >= low && vol <= high, `${what} a day, outside ${low}..${high}`);
        assert.ok(vol < altMedian, `${what} a day, alts' median ${(altMedian * 100).toFixed(2)} %`);
      }
    }
  }
});

test.run();
