// Footprint: the trade path (pair onTrade, every trade kernel) with and without the footprint
// kernel on the same seeded tape, paired passes in CPU time (the box's other load counts little);
// also the kernel alone, and reading an open 1h footprint (merge, point of control, stacks).
import { measure, printRows, quick as quickFlag, type ReportRow } from './harness.js';
import * as pair from '../kernels/index.js';
import {
  applyFootprint, createFootprintBar, createFootprintState, defaultFootprintOptions,
  openFootprint,
} from '../kernels/footprint.js';
import { tradeTape } from './lib/trade-tape.js';

const TARGET_RATIO = 1.15;

function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

/** The shared BTC-like tape, put on a 0.1 price grid and 0.001 sizes as a venue prints them. */
function tape(trades: number) {
  const t = tradeTape(trades, seeded(42));
  for (let i = 0; i < trades; i++) {
    t.price[i] = Math.round(t.price[i] * 10) / 10;
    t.size[i] = Math.round(t.size[i] * 1000) / 1000;
  }
  return t;
}

type Tape = ReturnType<typeof tape>;

/** CPU microseconds (user + system) of one call: the box's other load does not count. */
function cpuUs(body: () => void): number {
  const before = process.cpuUsage();
  body();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

/** One pass over the tape through pair onTrade, and with the footprint kernel after it. */
function passes(t: Tape) {
  const state = pair.createPairAnalytics({ vpinBucketVolume: 50 });
  const both = pair.createPairAnalytics({ vpinBucketVolume: 50 });
  const fp = createFootprintState({ ...defaultFootprintOptions, tickSize: 0.1 });
  const n = t.price.length;
  let tsA = 1_700_000_000_000;
  let tsB = tsA;
  const without = () => {
    for (let i = 0; i < n; i++) {
      tsA += t.gapMs[i];
      pair.onTrade(state, tsA, t.price[i], t.size[i], t.side[i]);
    }
  };
  const withFootprint = () => {
    for (let i = 0; i < n; i++) {
      tsB += t.gapMs[i];
      pair.onTrade(both, tsB, t.price[i], t.size[i], t.side[i]);
      applyFootprint(fp, tsB, t.price[i], t.size[i], t.side[i]);
    }
  };
  return { without, withFootprint };
}

function kernelAlone(t: Tape, runs: number): { tradeNs: number; readNs: number } {
  const fp = createFootprintState({ ...defaultFootprintOptions, tickSize: 0.1 });
  let ts = 1_700_000_000_000;
  const n = t.price.length;
  const pass = () => {
    for (let i = 0; i < n; i++) {
      ts += t.gapMs[i];
      applyFootprint(fp, ts, t.price[i], t.size[i], t.side[i]);
    }
  };
  pass();
  const samples: number[] = [];
  for (let k = 0; k < runs; k++) samples.push((cpuUs(pass) * 1000) / n);
  const tradeNs = median(samples);
  const bar = createFootprintBar(defaultFootprintOptions.levelsMax);
  let levels = 0;
  const readNs = measure('read open 1h', 10_000, (ops) => {
    for (let i = 0; i < ops; i++) if (openFootprint(fp, 2, bar)) levels += bar.levels;
  }, runs).nsPerOp;
  if (levels < 0) throw new Error('unreachable');
  return { tradeNs, readNs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const t = tape(opts.quick ? 1 << 17 : 1 << 19);
  const runs = opts.quick ? 3 : 5;
  const { without, withFootprint } = passes(t);
  without();
  withFootprint();
  const withoutNs: number[] = [];
  const ratios: number[] = [];
  // Rounds of one pass each, next to each other, in CPU time; the median of their ratios.
  for (let round = 0; round < (opts.quick ? 7 : 15); round++) {
    const a = cpuUs(without);
    const b = cpuUs(withFootprint);
    withoutNs.push((a * 1000) / t.price.length);
    ratios.push(b / a);
  }
  const base = median(withoutNs);
  const ratio = median(ratios);
  const withMedian = base * ratio;
  const alone = kernelAlone(t, runs);
  const row = (figure: string, value: number, unit: string, baseline: number | null,
    target: string, pass: boolean | null): ReportRow => ({
    bench: 'footprint', figure, value, unit, baseline,
    ratio: baseline === null ? null : value / baseline, target, pass,
  });
  return [
    row('trade path with the footprint kernel (CPU time, median ratio of 15 paired passes)',
      withMedian, 'ns/trade', base, `<= ${TARGET_RATIO}x without`, ratio <= TARGET_RATIO),
    row('footprint kernel alone (CPU time)', alone.tradeNs, 'ns/trade', null, '-', null),
    row('read the open 1h footprint (merge, POC, stacks)', alone.readNs, 'ns/read', null, '-',
      null),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printRows(await run({ quick: quickFlag }));
}
