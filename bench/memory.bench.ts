// Memory: RSS of the service process (its shard threads included) after running the simulator
// at max speed for N minutes (10 in the full run, 6 s in --quick, then until the wallets view
// holds all 10,000 wallets), sampled every second, with what the process then holds: screener
// pairs, tracked pairs, tracked wallets (the simulator reporting 10,000), market time held (the
// default 168 h warm-up, passed explicitly, plus what the run added).
// Baseline: the same process's RSS when /readyz first said ready.
// `--minutes N` runs N minutes instead (a longer or shorter look; the full run's figure is 10).
import { printRows, quick, type ReportRow } from './harness.js';
import { getText } from './lib/http-get.js';
import { sampleRss } from './lib/rss.js';
import { createKey, removeDir, startService, tempDataDir, waitReady } from './lib/service.js';

const HOUR_MS = 3_600_000;
/** The scenario tracks 10,000 wallets: the simulator reports that many (docs/feeds.md). */
const simWallets = 10_000;
/** The default warm-up, passed explicitly: the pairs hold its bars before the run begins. */
const warmupHours = 168;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The warm-up's 168 h at max speed: about a minute on an idle box, many on a loaded one. */
const readyWaitMs = 20 * 60_000;

interface Universe {
  readonly screenerPairs: number;
  readonly trackedPairs: number;
  readonly trackedWallets: number;
  /** Newest market time a tracked pair (BTC) has reached, epoch ms. */
  readonly pairMarketMs: number;
}

async function universeOf(baseUrl: string, auth: Record<string, string>): Promise<Universe> {
  const json = async (path: string) => {
    const { status, body } = await getText(baseUrl + path, auth);
    if (status !== 200) throw new Error(`${path} must answer 200 (was ${status}: ${body})`);
    return JSON.parse(body) as Record<string, unknown>;
  };
  const screener = await json('/api/v1/screener') as { pairs: { tracked: boolean }[] };
  const pair = await json('/api/v1/pair/BTC') as { asOf?: string };
  return {
    screenerPairs: screener.pairs.length,
    trackedPairs: screener.pairs.filter((p) => p.tracked).length,
    trackedWallets: await walletsHeld(baseUrl, auth),
    pairMarketMs: Date.parse(pair.asOf ?? ''),
  };
}

/** The wallets view's count. Its body is ~7 MB with 10,000 wallets: past the probe client's
 *  bound, so it is read with fetch; 0 while the view is not served yet. */
async function walletsHeld(baseUrl: string, auth: Record<string, string>): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/wallets`, { headers: auth });
  if (response.status !== 200) return 0;
  return ((await response.json()) as { count: number }).count;
}

/**
 * States arrive under a budget (1,000 a second: the first round of 10,000 takes ~10 s) and the
 * wallets view is rebuilt every 15 s: RSS is read once the view holds them all (or after 60 s).
 */
async function waitForWallets(baseUrl: string, auth: Record<string, string>): Promise<void> {
  const deadlineMs = Date.now() + 60_000;
  while (Date.now() < deadlineMs && await walletsHeld(baseUrl, auth) < simWallets) {
    await sleep(1_000);
  }
}

function rows(finalMB: number, peakMB: number, readyMB: number, u: Universe,
  startMarketMs: number, minutes: number): ReportRow[] {
  const hours = warmupHours + (u.pairMarketMs - startMarketMs) / HOUR_MS;
  const span = minutes < 1 ? `${Math.round(minutes * 60)} s` : `${Math.round(minutes)} min`;
  const label = `after ${span} of sim at max speed`;
  const context = (figure: string, value: number, unit: string, want: number): ReportRow => ({
    bench: 'memory', figure: `${figure} (baseline: the full universe)`, value, unit,
    baseline: want, ratio: value / want, target: `>= ${want}`, pass: value >= want });
  return [
    { bench: 'memory', figure: `RSS ${label} (baseline: RSS at ready)`, value: finalMB,
      unit: 'MB', baseline: readyMB, ratio: finalMB / readyMB, target: '< 500 MB',
      pass: finalMB < 500 },
    { bench: 'memory', figure: `peak RSS ${label} (baseline: RSS at ready)`, value: peakMB,
      unit: 'MB', baseline: readyMB, ratio: peakMB / readyMB, target: '-', pass: null },
    context('screener pairs held', u.screenerPairs, 'pairs', 170),
    context('tracked pairs held', u.trackedPairs, 'pairs', 100),
    context('tracked wallets held', u.trackedWallets, 'wallets', 10_000),
    context('market time held by the pairs (5m bars: warm-up + run)', hours, 'h', 168),
  ];
}

/** `--minutes N` from the command line, if given (a positive number). */
function minutesArg(argv: readonly string[]): number | undefined {
  const at = argv.indexOf('--minutes');
  if (at < 0) return undefined;
  const value = Number(argv[at + 1]);
  if (!(value > 0)) throw new Error(`--minutes must be a positive number (was ${argv[at + 1]})`);
  return value;
}

export async function run(opts: { quick: boolean; minutes?: number }): Promise<ReportRow[]> {
  const minutes = opts.minutes ?? (opts.quick ? 6 / 60 : 10);
  const dataDir = await tempDataDir('memory');
  try {
    const startMarketMs = Date.now();
    const service = await startService({ dataDir,
      args: ['--speed', 'max', '--limits', 'off', '--warmup', String(warmupHours)],
      env: { ORDERFLOW_SIM_WALLETS: String(simWallets) } });
    const sampler = sampleRss(service.pid, 1_000);
    try {
      await waitReady(service.baseUrl, readyWaitMs);
      const readyMB = sampler.samples().at(-1) ?? NaN;
      const readyAtMs = Date.now();
      // Made while the server runs, as an operator would: it sees the key within a second.
      const auth = { authorization: `Bearer ${await createKey(dataDir, 'Whale')}` };
      await sleep(minutes * 60_000);
      await waitForWallets(service.baseUrl, auth);
      const universe = await universeOf(service.baseUrl, auth);
      const finalMB = sampler.samples().at(-1) ?? NaN;
      // The span is what ran, the wait for the wallets included.
      return rows(finalMB, sampler.peakMB(), readyMB, universe, startMarketMs,
        (Date.now() - readyAtMs) / 60_000);
    } finally {
      sampler.stop();
      await service.stop();
    }
  } finally {
    await removeDir(dataDir);
  }
}

if (process.argv[1]?.endsWith('memory.bench.ts')) {
  printRows(await run({ quick, minutes: minutesArg(process.argv) }));
}
