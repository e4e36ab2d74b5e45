// Start-up: from process spawn to /readyz answering ready, on the embedded defaults (empty data
// directory) and on a data directory holding 7 days of 5-minute bars for 100 pairs. Baseline:
// spawn to exit of `orderflow --help` (Node + the cached bundle + the CLI) in the same run.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { systemClock } from '../core/clock.js';
import { openBarStore } from '../persistence/bars.js';
import { openStore } from '../persistence/store.js';
import { printRows, quick, type ReportRow } from './harness.js';
import { getText } from './lib/http-get.js';
import { binPath, removeDir, startService, tempDataDir, waitReady } from './lib/service.js';

const execFile$ = promisify(execFile);
const DAY_MS = 86_400_000;
const BAR_MS = 300_000;
const PAIRS = 100;

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function cliFloorMs(): Promise<number> {
  const startMs = Date.now();
  await execFile$(process.execPath, [binPath, '--help']);
  return Date.now() - startMs;
}

interface StartTimes { readonly readyMs: number; readonly listenMs: number; tracked: string[] }

/** One start on `dataDir`: spawn -> URL printed, spawn -> /readyz ready; then stop. */
async function timeStart(dataDir: string): Promise<StartTimes> {
  // Without warm-up (issue 17's figure); warmup.bench.ts measures the start with one.
  const service = await startService({ dataDir, args: ['--warmup', '0'] });
  try {
    const readyAtMs = await waitReady(service.baseUrl);
    const { body } = await getText(`${service.baseUrl}/api/v1/screener`);
    const pairs = (JSON.parse(body) as { pairs?: { symbol: string; tracked: boolean }[] }).pairs;
    return { readyMs: readyAtMs - service.spawnedAtMs,
      listenMs: service.listeningAtMs - service.spawnedAtMs,
      tracked: (pairs ?? []).filter((p) => p.tracked).map((p) => p.symbol) };
  } finally {
    await service.stop();
  }
}

/** 7 days of 5m bars per symbol, written through the store's own bar table. */
async function writeBars(dataDir: string, symbols: readonly string[]): Promise<number> {
  const store = await openStore({ dataDir, clock: systemClock, watchKeys: false });
  let count = 0;
  try {
    const bars = openBarStore(store.bulk);
    const endMs = Math.floor(Date.now() / BAR_MS) * BAR_MS;
    for (const symbol of symbols) {
      let price = 100;
      for (let openMs = endMs - 7 * DAY_MS; openMs < endMs; openMs += BAR_MS) {
        const close = price * (1 + Math.sin(openMs / 3.7e6) * 1e-3);
        bars.add({ symbol, timeframe: '5m', openMs, open: price,
          high: Math.max(price, close) * 1.001, low: Math.min(price, close) * 0.999, close,
          volume: 12.5, buyNotional: 700, sellNotional: 600, cvdClose: count, trades: 40 });
        price = close;
        count++;
      }
      await bars.flush();
    }
  } finally {
    await store.close();
  }
  return count;
}

/** True when some runtime source reads the stored bars at start (otherwise the figure waits). */
function barsWired(): boolean {
  const roots = ['../actors', '../bin'].map((p) => new URL(p, import.meta.url).pathname);
  const files: string[] = [];
  for (const root of roots) {
    for (const name of readdirSync(root, { recursive: true }) as string[]) {
      const file = join(root, name);
      if (file.endsWith('.ts') && statSync(file).isFile()) files.push(file);
    }
  }
  return files.some((file) => readFileSync(file, 'utf8').includes('openBarStore('));
}

function rows(floorMs: number, defaults: StartTimes, withBars: StartTimes, bars: number):
  ReportRow[] {
  const wired = barsWired();
  const row = (figure: string, ms: number, target: string, pass: boolean | null): ReportRow =>
    ({ bench: 'startup', figure: `${figure} (baseline: orderflow --help)`, value: ms / 1000,
      unit: 's', baseline: floorMs / 1000, ratio: ms / floorMs, target, pass });
  return [
    row('defaults, --warmup 0: spawn to /readyz ready (every tracked pair published)',
      defaults.readyMs, '< 2 s', defaults.readyMs < 2000),
    row('defaults, --warmup 0: spawn to URL printed', defaults.listenMs, '-', null),
    row(`${bars} stored 5m bars (7 days x ${PAIRS} pairs): spawn to /readyz ready`,
      withBars.readyMs, wired ? '< 5 s' : '< 5 s (pending: serve does not load stored bars yet)',
      wired ? withBars.readyMs < 5000 : null),
  ];
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const runs = opts.quick ? 1 : 3;
  const floors: number[] = [];
  // The first --help run warms the tsx cache and the page cache; it is not counted.
  for (let i = 0; i < runs + 1; i++) floors.push(await cliFloorMs());
  const defaults: StartTimes[] = [];
  const withBars: StartTimes[] = [];
  const barsDir = await tempDataDir('bars');
  try {
    for (let i = 0; i < runs; i++) {
      const dir = await tempDataDir('startup');
      try {
        defaults.push(await timeStart(dir));
      } finally {
        await removeDir(dir);
      }
    }
    const symbols = defaults[0].tracked.slice(0, PAIRS);
    const bars = await writeBars(barsDir, symbols.length === PAIRS ? symbols
      : Array.from({ length: PAIRS }, (_, i) => symbols[i] ?? `PAIR${i}`));
    for (let i = 0; i < runs; i++) withBars.push(await timeStart(barsDir));
    const pick = (list: StartTimes[], key: 'readyMs' | 'listenMs') =>
      median(list.map((t) => t[key]));
    return rows(median(floors.slice(1)),
      { readyMs: pick(defaults, 'readyMs'), listenMs: pick(defaults, 'listenMs'), tracked: [] },
      { readyMs: pick(withBars, 'readyMs'), listenMs: pick(withBars, 'listenMs'), tracked: [] },
      bars);
  } finally {
    await removeDir(barsDir);
  }
}

if (process.argv[1]?.endsWith('startup.bench.ts')) printRows(await run({ quick }));
