// Footprint and volume profile answers in the endpoints' shape, built from a seeded walk of BTC
// trades at $5 levels: for the layout's unit tests (no server; the browser test reads the real
// endpoints). Each bar's point of control and stacked imbalances follow docs/footprint.md; one
// bar is built from candles and one is mixed, as warm-up leaves them.
import type { Footprint, FootprintBar, FootprintLevel } from '../../web/src/footprint-layout.js';
import type { VolumeProfile } from '../../web/src/profile-layout.js';
import { createSeededRng } from '../../kernels/seeded-rng.js';

const LEVEL = 5;
const BAR_MS = 300_000;

function stacks(levels: FootprintLevel[]): FootprintBar['stackedImbalances'] {
  const found: FootprintBar['stackedImbalances'] = [];
  for (const side of ['buy', 'sell'] as const) {
    let run: number[] = [];
    const close = () => {
      if (run.length >= 3) {
        found.push({ side, fromPrice: levels[run[0]].price,
          toPrice: levels[run[run.length - 1]].price, levels: run.length });
      }
      run = [];
    };
    levels.forEach((l, i) => {
      const against = side === 'buy' ? levels[i - 1]?.sell ?? 0 : levels[i + 1]?.buy ?? 0;
      const own = side === 'buy' ? l.buy : l.sell;
      if (own > 0 && own >= 3 * against) run.push(i);
      else close();
    });
    close();
  }
  return found;
}

function tradeBar(openMs: number, mid: number, random: () => number): FootprintBar {
  const span = 20 + Math.floor(random() * 20);
  const first = Math.round(mid / LEVEL) - Math.floor(span / 2);
  const trend = random() - 0.5;
  const levels = Array.from({ length: span }, (_, i) => {
    const weight = Math.exp(-(((i - span / 2) / (span / 3)) ** 2));
    const buy = +(weight * (0.2 + random() * 3) * (1 + trend * (i / span))).toFixed(3);
    const sell = +(weight * (0.2 + random() * 3) * (1 - trend * (i / span))).toFixed(3);
    return { price: (first + i) * LEVEL, buy, sell, delta: +(buy - sell).toFixed(3) };
  });
  levels[span - 3].buy = +(levels[span - 3].buy * 12).toFixed(3);
  levels[span - 3].delta = +(levels[span - 3].buy - levels[span - 3].sell).toFixed(3);
  const volumes = levels.map((l) => l.buy + l.sell);
  const poc = levels[volumes.indexOf(Math.max(...volumes))].price;
  return { openTime: new Date(openMs).toISOString(), closeTime: new Date(openMs + BAR_MS)
    .toISOString(), closed: true, basis: 'trades', low: levels[0].price,
  high: levels[span - 1].price + LEVEL - 1, volume: +volumes.reduce((a, b) => a + b).toFixed(3),
  delta: +levels.reduce((a, l) => a + l.delta, 0).toFixed(3), pocPrice: poc, clippedVolume: 0,
  levels, stackedImbalances: stacks(levels) };
}

/** `count` bars of 5m ending with the open bar at nowMs; bar 2 from candles, bar 3 mixed. */
export function footprintFixture(nowMs: number, count = 30): Footprint {
  const random = createSeededRng(39);
  const lastOpen = Math.floor(nowMs / BAR_MS) * BAR_MS;
  let mid = 64_250;
  const bars = Array.from({ length: count }, (_, i) => {
    mid += (random() - 0.5) * 120;
    const bar = tradeBar(lastOpen - (count - 1 - i) * BAR_MS, mid, random);
    if (i === 2) return { ...bar, basis: 'candles' as const, levels: [], pocPrice: null,
      stackedImbalances: [], volume: 0, delta: 0 };
    if (i === 3) return { ...bar, basis: 'mixed' as const };
    return i === count - 1 ? { ...bar, closed: false } : bar;
  });
  return { symbol: 'BTC', timeframe: '5m', tickSize: 1, levelSize: LEVEL, bars };
}

/** The day's profile summed from the bars, value area and two naked points of control. */
export function profileFixture(footprint: Footprint): VolumeProfile {
  const byPrice = new Map<number, { buy: number; sell: number }>();
  for (const bar of footprint.bars) {
    for (const l of bar.levels) {
      const held = byPrice.get(l.price) ?? { buy: 0, sell: 0 };
      byPrice.set(l.price, { buy: held.buy + l.buy, sell: held.sell + l.sell });
    }
  }
  const levels = [...byPrice.entries()].sort((a, b) => a[0] - b[0]).map(([price, v]) => ({
    price, buy: +v.buy.toFixed(3), sell: +v.sell.toFixed(3), volume: +(v.buy + v.sell).toFixed(3),
  }));
  const poc = levels.reduce((best, l) => (l.volume > best.volume ? l : best), levels[0]);
  const at = levels.indexOf(poc);
  return { symbol: 'BTC', session: 'today', start: footprint.bars[0].openTime,
    end: footprint.bars[footprint.bars.length - 1].closeTime, levelSize: LEVEL,
    pocPrice: poc.price, valueAreaLow: levels[Math.max(0, at - 6)].price,
    valueAreaHigh: levels[Math.min(levels.length - 1, at + 5)].price + LEVEL,
    volume: +levels.reduce((a, l) => a + l.volume, 0).toFixed(3), levels,
    nakedPocs: [{ price: poc.price - 40 * LEVEL, sessionStart: '2026-11-27T00:00:00.000Z' },
      { price: poc.price + 9 * LEVEL, sessionStart: '2026-11-28T00:00:00.000Z' }],
    basis: 'trades' };
}
