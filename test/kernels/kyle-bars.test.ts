// Kyle's lambda and the OHLCV bars: hand cases, random streams and the real tape against the
// plain versions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  advanceBars, createBarColumns, createBarsState, createKernelBar, lastClosedBar, openBar,
  readClosedBars, updateBars,
} from '../../kernels/bars.js';
import { createKyleState, snapshotKyle, updateKyle } from '../../kernels/kyle.js';
import { BAR_TIMEFRAME_MS } from '../../kernels/timeframes.js';
import { plainBars, plainKyle } from './helpers/plain.js';
import { close, randomTrades, realBtcTrades, type Trades } from './helpers/streams.js';

const kyleSnap = () => ({ kyleLambda: null as number | null, intercept: null as number | null,
  intervals: 0 });

test('Kyle hand case: returns exactly 2 bps per $1M plus 1 bps give lambda 2, intercept 1', () => {
  const s = createKyleState({ intervalMs: 1000, windowIntervals: 5, minIntervals: 3,
    flow: 'notional' });
  let price = 100;
  updateKyle(s, 0, price, 1, 1); // first interval: the reference only
  const flows = [1, -2, 3, 0.5, -1, 2];
  flows.forEach((millions, k) => {
    const bps = 2 * millions + 1;
    price *= Math.exp(bps / 1e4);
    // One trade of `millions` USD millions at the new price.
    updateKyle(s, (k + 1) * 1000, price, (Math.abs(millions) * 1e6) / price, millions > 0 ? 1 : -1);
  });
  updateKyle(s, 7000, price, 1e-9, 1);
  const out = snapshotKyle(s, kyleSnap());
  assert.ok(close(out.kyleLambda!, 2, 1e-9), String(out.kyleLambda));
  assert.ok(close(out.intercept!, 1, 1e-9));
  assert.is(out.intervals, 5);
  const flat = createKyleState({ intervalMs: 1000, windowIntervals: 3, minIntervals: 3,
    flow: 'notional' });
  for (let k = 0; k < 6; k++) updateKyle(flat, k * 1000, 100, 1, 1);
  assert.is(snapshotKyle(flat, kyleSnap()).kyleLambda, null, 'no variation in flow: null');
});

function kyleSeries(t: Trades, ms: number, window: number, min: number): (number | null)[] {
  const s = createKyleState({ intervalMs: ms, windowIntervals: window, minIntervals: min,
    flow: 'notional' });
  const out: (number | null)[] = [];
  for (let i = 0; i < t.tsMs.length; i++) {
    const before = s.count + (Number.isNaN(s.referencePrice) ? 0 : 0.5);
    if (updateKyle(s, t.tsMs[i], t.price[i], t.size[i], t.side[i]) && before >= 0.5) {
      out.push(snapshotKyle(s, kyleSnap()).kyleLambda);
    }
  }
  return out;
}

test('Kyle on random streams and the real tape matches the plain OLS', () => {
  for (const [t, ms] of [[randomTrades(21, 20_000), 60_000], [realBtcTrades(), 5000]] as const) {
    const got = kyleSeries(t, ms, 30, 10);
    const expected = plainKyle(t, ms, 30, 10);
    assert.is(got.length, expected.length);
    got.forEach((v, k) => {
      const e = expected[k];
      assert.ok(v === e || (v !== null && e !== null && close(v, e)),
        `interval ${k}: ${v} vs ${e}`);
    });
    assert.ok(got.some((v) => v !== null));
  }
});

test('bars hand case: OHLCV, notional by side, CVD at close, flat bar for an empty one', () => {
  const s = createBarsState({ historyDays: 1 });
  const bar = createKernelBar();
  assert.is(lastClosedBar(s, 0, bar), false);
  updateBars(s, 0, 10, 1, 1);
  updateBars(s, 1000, 12, 2, -1);
  updateBars(s, 2000, 9, 1, 1);
  updateBars(s, 600_001, 11, 1, 1); // skips the 300000 bar: it is written flat at 9
  assert.ok(lastClosedBar(s, 0, bar));
  assert.equal({ ...bar }, {
    timeframe: '5m', openMs: 300_000, open: 9, high: 9, low: 9, close: 9, volume: 0,
    buyNotional: 0, sellNotional: 0, cvdClose: 10 - 24 + 9, trades: 0,
  });
  const cols = createBarColumns(5);
  assert.is(readClosedBars(s, 0, 5, cols), 2);
  assert.equal([cols.open[0], cols.high[0], cols.low[0], cols.close[0], cols.volume[0]], [10, 12,
    9, 9, 4]);
  assert.equal([cols.buyNotional[0], cols.sellNotional[0], cols.trades[0]], [19, 24, 3]);
  assert.ok(openBar(s, 2, bar));
  assert.equal([bar.timeframe, bar.trades, bar.close], ['1h', 4, 11]);
});

test('bars: time passing before the first trade, and the open 15m bar merges the open 5m', () => {
  const s = createBarsState({ historyDays: 1 });
  const bar = createKernelBar();
  assert.is(advanceBars(s, 1000), 0);
  assert.is(openBar(s, 0, bar), false);
  updateBars(s, 2000, 10, 1, 1);
  updateBars(s, 300_000, 12, 1, -1);
  updateBars(s, 300_001, 8, 2, 1);
  assert.ok(openBar(s, 0, bar) && bar.trades === 2);
  assert.ok(openBar(s, 1, bar));
  assert.equal([bar.openMs, bar.open, bar.high, bar.low, bar.close, bar.volume, bar.trades,
    bar.buyNotional, bar.sellNotional, bar.cvdClose], [0, 10, 12, 8, 8, 4, 3, 26, 12, 14]);
  assert.is(updateBars(s, 900_000, 9, 1, 1), 3, 'the 5m and the 15m bar close together');
  assert.ok(lastClosedBar(s, 1, bar));
  assert.equal([bar.open, bar.high, bar.low, bar.close, bar.trades], [10, 12, 8, 8, 3]);
});

test('bars on random streams (gaps of days) and the real tape match the plain bars', () => {
  for (const t of [randomTrades(31, 30_000), realBtcTrades()]) {
    const s = createBarsState({ historyDays: 30 });
    for (let i = 0; i < t.tsMs.length; i++) updateBars(s, t.tsMs[i], t.price[i], t.size[i],
      t.side[i]);
    BAR_TIMEFRAME_MS.forEach((ms, tf) => {
      const expected = plainBars(t, ms).slice(-s.capacity[tf]);
      const cols = createBarColumns(s.capacity[tf]);
      const n = readClosedBars(s, tf, s.capacity[tf], cols);
      assert.is(n, expected.length, `timeframe ${ms}`);
      for (let k = 0; k < n; k++) {
        const e = expected[k];
        const ok = cols.openMs[k] === e.openMs && cols.open[k] === e.open &&
          cols.high[k] === e.high && cols.low[k] === e.low && cols.close[k] === e.close &&
          cols.trades[k] === e.trades && close(cols.volume[k], e.volume) &&
          close(cols.buyNotional[k], e.buyNotional) && close(cols.sellNotional[k],
            e.sellNotional) &&
          close(cols.cvdClose[k], e.cvdClose);
        assert.ok(ok, `timeframe ${ms} bar ${k}`);
      }
    });
  }
});

test.run();
