// CVD: hand-computed cases, random streams across days against the plain sums, the real tape.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createCvdState, cvdFlowRatio, readCvdHistory, snapshotCvd, updateCvd, type CvdSnapshot,
} from '../../kernels/cvd.js';
import { plainCvd, plainCvdHistory } from './helpers/plain.js';
import { close, randomTrades, realBtcTrades, type Trades } from './helpers/streams.js';

const DAY = 86_400_000;
const snap = (): CvdSnapshot => ({ cvd: null, cvdRolling: null, trades: 0 });

function feed(t: Trades, rollingMinutes = 1440) {
  const s = createCvdState({ historyPoints: 5000, rollingMinutes });
  for (let i = 0; i < t.tsMs.length; i++) updateCvd(s, t.tsMs[i], t.price[i], t.size[i], t.side[i]);
  return s;
}

test('hand case: signed notional, reset at 00:00 UTC, rolling keeps yesterday', () => {
  const s = createCvdState({ historyPoints: 10, rollingMinutes: 60 });
  assert.equal(snapshotCvd(s, snap()).cvd, null, 'empty CVD is null, not 0');
  const t0 = 10 * DAY - 120_000; // 23:58 UTC
  updateCvd(s, t0, 100, 2, 1); // +200
  updateCvd(s, t0 + 1000, 50, 1, -1); // -50
  assert.equal(snapshotCvd(s, snap()).cvd, 150);
  updateCvd(s, 10 * DAY + 5000, 10, 3, 1); // 00:00:05 next day: +30
  const out = snapshotCvd(s, snap());
  assert.equal(out.cvd, 30);
  assert.equal(out.cvdRolling, 180);
  assert.equal(out.trades, 3);
  assert.equal(cvdFlowRatio(s, 60), 180 / 280);
  const ts = new Float64Array(10); const cvd = new Float64Array(10); const d = new Float64Array(10);
  const n = readCvdHistory(s, 0, 10, ts, cvd, d);
  assert.equal(n, 2, 'two closed minutes: 23:58 and the empty 23:59');
  assert.equal([ts[0], cvd[0], d[0]], [t0, 150, 150]);
  assert.equal([ts[1], cvd[1], d[1]], [t0 + 60_000, 150, 0]);
});

test('random streams over several days match the plain sums', () => {
  for (const seed of [1, 2, 3]) {
    const t = randomTrades(seed, 20_000);
    const s = feed(t, 90);
    const out = snapshotCvd(s, snap());
    const plain = plainCvd(t, 90);
    assert.ok(close(out.cvd!, plain.day), `day ${out.cvd} vs ${plain.day}`);
    assert.ok(close(out.cvdRolling!, plain.rolling),
      `rolling ${out.cvdRolling} vs ${plain.rolling}`);
    [60_000, 300_000, 900_000, 3_600_000].forEach((ms, i) => {
      const expected = plainCvdHistory(t, ms).slice(-5000);
      const ts = new Float64Array(5000);
      const c = new Float64Array(5000);
      const d = new Float64Array(5000);
      const n = readCvdHistory(s, i, 5000, ts, c, d);
      assert.is(n, expected.length, `interval ${ms}`);
      for (let k = 0; k < n; k++) {
        assert.is(ts[k], expected[k].tsMs);
        assert.ok(close(c[k], expected[k].cvd, 1e-9) && close(d[k], expected[k].delta, 1e-9),
          `interval ${ms} point ${k}`);
      }
    });
  }
});

test('the real BTC tape gives the plain CVD', () => {
  const t = realBtcTrades();
  const out = snapshotCvd(feed(t), snap());
  assert.ok(close(out.cvd!, plainCvd(t, 1440).day));
  assert.is(out.trades, 21_313);
});

test('bad trades are rejected with the field named', () => {
  const s = createCvdState();
  updateCvd(s, 1000, 1, 1, 1);
  assert.throws(() => updateCvd(s, 999, 1, 1, 1), /tsMs must be not before/);
  assert.throws(() => updateCvd(s, 1000, 1, 1, 2), /trade side must be \+1 or -1 \(was 2\)/);
  assert.throws(() => createCvdState({ historyPoints: 0, rollingMinutes: 1 }), /historyPoints/);
});

test.run();
