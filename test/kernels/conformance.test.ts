// Runs the shared conformance suite (kernel.case.ts) for every kernel and the pair bundle.
import * as absorption from '../../kernels/absorption.js';
import * as bars from '../../kernels/bars.js';
import * as cvd from '../../kernels/cvd.js';
import * as footprint from '../../kernels/footprint.js';
import * as kyle from '../../kernels/kyle.js';
import * as obi from '../../kernels/obi.js';
import * as ofi from '../../kernels/ofi.js';
import * as pair from '../../kernels/index.js';
import * as regime from '../../kernels/regime.js';
import * as level from '../../kernels/vpin-level.js';
import * as vpin from '../../kernels/vpin.js';
import * as whale from '../../kernels/whale.js';
import { plainCopy, runKernelCase } from './kernel.case.js';

const T0 = 1_700_000_000_000;
/** Trade number i: about 37 ms apart (some in the same ms), a wavy price, mixed sides. */
const tsOf = (i: number) => T0 + Math.floor(i * 37.3);
const priceOf = (i: number) => 100 + 10 * Math.sin(i / 5000) + ((i * 7919) % 13) / 100;
const sizeOf = (i: number) => 0.1 + ((i * 104729) % 97) / 10;
const sideOf = (i: number) => (((i * 31) % 7) < 3 ? 1 : -1);

type TradeKernel<S> = (s: S, ts: number, p: number, q: number, side: number) => unknown;
function tradeInvalid<S>(update: TradeKernel<S>) {
  return [
    ['NaN price', (s: S) => update(s, tsOf(300), NaN, 1, 1)],
    ['negative size', (s: S) => update(s, tsOf(300), 100, -1, 1)],
    ['zero size', (s: S) => update(s, tsOf(300), 100, 0, 1)],
    ['side 0', (s: S) => update(s, tsOf(300), 100, 1, 0)],
    ['infinite price', (s: S) => update(s, tsOf(300), Infinity, 1, -1)],
    ['time going back', (s: S) => update(s, T0 - 1, 100, 1, 1)],
  ] as const;
}
const feedTrade = <S>(update: TradeKernel<S>) => (s: S, i: number) => {
  update(s, tsOf(i), priceOf(i), sizeOf(i), sideOf(i));
};

runKernelCase({
  name: 'cvd', create: () => cvd.createCvdState(), reset: cvd.resetCvd,
  feed: feedTrade(cvd.updateCvd), invalid: tradeInvalid(cvd.updateCvd),
  snapshot: (s) => plainCopy({
    snap: cvd.snapshotCvd(s, { cvd: null, cvdRolling: null, trades: 0 }),
    history: [0, 1, 2, 3].map((i) => {
      const ts = new Float64Array(50);
      const c = new Float64Array(50);
      const d = new Float64Array(50);
      const n = cvd.readCvdHistory(s, i, 50, ts, c, d);
      return [ts.slice(0, n), c.slice(0, n), d.slice(0, n)];
    }),
  }),
});

for (const mode of ['aggressor', 'bvc'] as const) {
  const options = { ...vpin.defaultVpinOptions, mode, bucketVolume: 40, windowBuckets: 20 };
  runKernelCase({
    name: `vpin ${mode}`, create: () => vpin.createVpinState(options), reset: vpin.resetVpin,
    feed: feedTrade(vpin.updateVpin), invalid: tradeInvalid(vpin.updateVpin),
    snapshot: (s) => plainCopy({
      snap: vpin.snapshotVpin(s, { vpin: null, bucketsCompleted: 0, bucketVolume: 0 }),
      open: [s.buckets.curBuy, s.buckets.curSell, s.barVolume],
    }),
  });
}

runKernelCase({
  name: 'vpin level',
  create: () => level.createVpinLevelState({ halfWindowValues: 500, minValues: 50,
    compression: 0.01 }),
  reset: level.resetVpinLevel,
  feed: (s, i) => level.updateVpinLevel(s, 0.2 + 0.1 * Math.sin(i / 300) * ((i * 7) % 5) / 5),
  invalid: [['NaN', (s) => level.updateVpinLevel(s, NaN)], ['above 1',
    (s) => level.updateVpinLevel(s, 1.5)]],
  snapshot: (s) => {
    const name = level.vpinLevelName(s);
    return plainCopy({ cdf: s.cdf, level: name, n: s.olderCount + s.newerCount });
  },
});

const bookBid = new Float64Array(20);
const bookBidSz = new Float64Array(20);
const bookAsk = new Float64Array(20);
const bookAskSz = new Float64Array(20);
/** Book number i into the shared arrays: a moving mid, changing sizes, some short sides. */
function bookOf(i: number): number {
  const mid = 1000 + Math.round(20 * Math.sin(i / 400));
  for (let k = 0; k < 20; k++) {
    bookBid[k] = mid - 1 - k;
    bookAsk[k] = mid + 1 + k;
    bookBidSz[k] = 1 + ((i * 13 + k * 7) % 11);
    bookAskSz[k] = 1 + ((i * 17 + k * 3) % 9);
  }
  return 20 - (i % 5);
}
type BookKernel<S> = (s: S, ts: number, bp: Float64Array, bq: Float64Array, bn: number,
  ap: Float64Array, aq: Float64Array, an: number) => unknown;
const feedBook = <S>(update: BookKernel<S>) => (s: S, i: number) => {
  const n = bookOf(i);
  update(s, T0 + i * 250, bookBid, bookBidSz, n, bookAsk, bookAskSz, 20);
};
function bookInvalid<S>(update: BookKernel<S>) {
  const nanPx = Float64Array.of(NaN, 99);
  const negSz = Float64Array.of(1, -1);
  const two = Float64Array.of(101, 102);
  return [
    ['NaN bid price', (s: S) => update(s, T0 + 1e9, nanPx, two, 2, two, two, 2)],
    ['negative size', (s: S) => update(s, T0 + 1e9, two, negSz, 2, two, two, 2)],
    ['levels beyond arrays', (s: S) => update(s, T0 + 1e9, two, two, 3, two, two, 2)],
    ['time going back', (s: S) => update(s, T0 - 1, two, two, 2, two, two, 2)],
  ] as const;
}

runKernelCase({
  name: 'obi', create: () => obi.createObiState(), reset: obi.resetObi,
  feed: feedBook(obi.updateObi), invalid: bookInvalid(obi.updateObi),
  snapshot: (s) => plainCopy(obi.snapshotObi(s, { obi: null, obiTopK: null, mid: null, books: 0 })),
});

runKernelCase({
  name: 'ofi', create: () => ofi.createOfiState(), reset: ofi.resetOfi,
  feed: feedBook(ofi.updateOfi), invalid: bookInvalid(ofi.updateOfi),
  snapshot: (s) => plainCopy(ofi.snapshotOfi(s, ofi.createOfiSnapshot(10))),
});

runKernelCase({
  name: 'kyle', create: () => kyle.createKyleState({ ...kyle.defaultKyleOptions,
    intervalMs: 5000 }),
  reset: kyle.resetKyle, feed: feedTrade(kyle.updateKyle), invalid: tradeInvalid(kyle.updateKyle),
  snapshot: (s) => plainCopy(kyle.snapshotKyle(s, { kyleLambda: null, intercept: null,
    intervals: 0 })),
});

runKernelCase({
  name: 'footprint',
  create: () => footprint.createFootprintState({ ...footprint.defaultFootprintOptions,
    tickSize: 0.01 }),
  reset: footprint.resetFootprint,
  feed: feedTrade(footprint.updateFootprint), invalid: tradeInvalid(footprint.updateFootprint),
  snapshot: (s) => plainCopy([0, 1, 2].map((t) => {
    const read = (ok: boolean, bar: footprint.FootprintBar) => (ok ? {
      ...bar, buy: bar.buy.slice(0, bar.levels), sell: bar.sell.slice(0, bar.levels),
      stackSide: bar.stackSide.slice(0, bar.stacks), stackFrom: bar.stackFrom.slice(0, bar.stacks),
      stackTo: bar.stackTo.slice(0, bar.stacks) } : null);
    const bar = footprint.createFootprintBar(128);
    const open = read(footprint.openFootprint(s, t, bar), bar);
    const closed = read(footprint.closedFootprintAgo(s, t, 0, bar), bar);
    return { open, closed, kept: footprint.footprintBarsKept(s, t) };
  })),
});

runKernelCase({
  name: 'bars', create: () => bars.createBarsState(), reset: bars.resetBars,
  feed: feedTrade(bars.updateBars), invalid: tradeInvalid(bars.updateBars),
  snapshot: (s) => {
    const out = [0, 1, 2].map((t) => {
      const cols = bars.createBarColumns(5);
      const n = bars.readClosedBars(s, t, 5, cols);
      const open = bars.createKernelBar();
      return { n, cols, open: bars.openBar(s, t, open) ? open : null };
    });
    return plainCopy(out);
  },
});

runKernelCase({
  name: 'whale',
  create: () => whale.createWhaleState({ ...whale.defaultWhaleOptions, minSamples: 100,
    floorUsd: 0 }),
  reset: whale.resetWhale, feed: feedTrade(whale.updateWhale),
  invalid: tradeInvalid(whale.updateWhale),
  snapshot: (s) => plainCopy(whale.snapshotWhale(s, whale.createWhaleSnapshot(50))),
});

runKernelCase({
  name: 'absorption',
  create: () => absorption.createAbsorptionState({
    ...absorption.defaultAbsorptionOptions, windowMs: 2000, minSamples: 20,
  }),
  reset: absorption.resetAbsorption, feed: feedTrade(absorption.updateAbsorption),
  invalid: tradeInvalid(absorption.updateAbsorption),
  snapshot: (s) => plainCopy(absorption.snapshotAbsorption(s,
    absorption.createAbsorptionSnapshot(50))),
});

runKernelCase({
  name: 'regime', create: () => regime.createRegimeState(), reset: regime.resetRegime,
  feed: (s, i) => {
    const c = priceOf(i * 50);
    regime.updateRegime(s, c * 1.001, c * 0.999, c);
  },
  invalid: [
    ['high below low', (s) => regime.updateRegime(s, 1, 2, 1.5)],
    ['NaN close', (s) => regime.updateRegime(s, 2, 1, NaN)],
  ],
  snapshot: (s) => plainCopy({ regime: regime.regimeName(s), er: s.efficiencyRatio,
    rv: s.rvPercentile }),
});

const pairOptions = { vpinBucketVolume: 30, vpinLevelHalfWindow: 1000, vpinLevelMinValues: 50 };
runKernelCase({
  name: 'pair analytics',
  create: () => pair.createPairAnalytics(pairOptions),
  reset: (s) => pair.resetPairAnalytics(s),
  feed: (s, i) => {
    pair.onTrade(s, tsOf(i), priceOf(i), sizeOf(i), sideOf(i));
    if (i % 3 === 0) {
      const n = bookOf(i);
      pair.onBook(s, tsOf(i), bookBid, bookBidSz, n, bookAsk, bookAskSz, 20);
    }
  },
  invalid: [
    ...tradeInvalid(pair.onTrade),
    ...bookInvalid(pair.onBook),
    ['NaN funding', (s) => pair.onFunding(s, NaN)],
    ['zero mark', (s) => pair.onMark(s, 0)],
  ],
  snapshot: (s) => plainCopy(pair.snapshotPairAnalytics(s, pair.createPairSnapshot(s.options))),
});
