// History copy bench (scale-out, #22): a front's bulk copy of ingest's history through a real
// Redis, in-process on both sides (ingest's copy server on its store, the front's copier into
// its own): a week of 1-minute points and 180 days of 1-hour points for 100 pairs (quick: one
// day and 30 days). Reports the copy's wall time, its rate, the event-loop delay meanwhile (what
// a request waits behind a chunk; both sides share the process here) and Redis' peak memory
// above idle. `--chunk-points N` sets the front's chunk size.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { rm } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { ManualClock } from '../core/clock.js';
import { HOUR_MS } from '../core/history-point.js';
import { silentLogger } from '../core/logger.js';
import { HistoryRecorder } from '../actors/runtime/history-recorder.js';
import { openRedisLink } from '../scale-out/redis-link.js';
import { openStore } from '../persistence/store.js';
import { openTable } from '../persistence/table.js';
import { HistoryCopier, copyOptionsDefault } from '../scale-out/history-copy.js';
import { serveHistoryCopies } from '../scale-out/history-copy-server.js';
import { startRedisServer } from '../test/helpers/redis-server.js';
import { printRows, quick, type ReportRow } from './harness.js';
import { END_MS, fill, point } from './history.bench.js';
import { tempDataDir } from './lib/service.js';

const DAY = 86_400_000;
const pairs = 100;

async function openHistory(label: string) {
  const dir = await tempDataDir(label);
  const store = await openStore({ dataDir: dir, clock: new ManualClock(END_MS),
    watchKeys: false });
  const recorder = new HistoryRecorder(store.bulk, { minuteRetentionDays: 7,
    hourRetentionDays: 180 }, new ManualClock(END_MS), silentLogger);
  return { dir, store, recorder, async close() {
    await recorder.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  } };
}

/** 1-hour points older than the minutes, as ingest holds them past the minute retention. */
async function fillHours(recorder: HistoryRecorder, minuteDays: number, hourDays: number) {
  const symbols = ['BTC', ...Array.from({ length: pairs - 1 }, (_, i) => `P${i}`)];
  const endMs = END_MS - minuteDays * DAY;
  for (let t = END_MS - hourDays * DAY, i = 0; t < endMs; t += HOUR_MS, i++) {
    await recorder.store.putHours(symbols.map((s, k) => point(s, t, i, 100 + k)));
  }
}

const usedMemory = async (client: Redis) =>
  Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1] ?? 0);

export async function run(opts: { quick: boolean },
  pointsMax = copyOptionsDefault.pointsMax): Promise<ReportRow[]> {
  const minuteDays = opts.quick ? 1 : 7;
  const hourDays = opts.quick ? 30 : 180;
  const redis = await startRedisServer();
  const ingest = await openHistory('copy-ingest');
  const front = await openHistory('copy-front');
  const ingestLink = await openRedisLink(redis.url, silentLogger);
  const frontLink = await openRedisLink(redis.url, silentLogger);
  const probe = new Redis(redis.url);
  try {
    await fill(ingest.recorder.store, pairs, minuteDays);
    await fillHours(ingest.recorder, minuteDays, hourDays);
    const stopServing = serveHistoryCopies(ingestLink, ingest.recorder.store, silentLogger);
    const copier = new HistoryCopier(front.recorder, openTable(front.store.root, 'history-copy'),
      frontLink, silentLogger, { ...copyOptionsDefault, pointsMax });
    await new Promise<void>((resolve) => frontLink.onReady(resolve));
    await new Promise((r) => setTimeout(r, 200)); // both subscriptions in place
    const idleBytes = await usedMemory(probe);
    let peakBytes = idleBytes;
    const sampler = setInterval(() => {
      void usedMemory(probe).then((b) => { peakBytes = Math.max(peakBytes, b); });
    }, 20);
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const startMs = performance.now();
    copier.start();
    copier.want({ fromMs: 0, toMs: END_MS + DAY });
    while (copier.status() !== null) await new Promise((r) => setTimeout(r, 10));
    const seconds = (performance.now() - startMs) / 1000;
    loop.disable();
    clearInterval(sampler);
    await copier.stop();
    stopServing();
    for (const symbol of ['BTC', 'P98']) {
      const [a, b] = [ingest, front].map(({ recorder: { store } }) =>
        JSON.stringify([store.minutes(symbol, 0, Infinity), store.hours(symbol, 0, Infinity)]));
      if (a !== b) throw new Error(`the front's ${symbol} differs from ingest's after the copy`);
    }
    const points = pairs * (minuteDays * 1440 + hourDays * 24);
    const what = `${pairs} pairs, ${minuteDays} d of 1m + ${hourDays} d of 1h points, ` +
      `${pointsMax}-point chunks`;
    return [
      { bench: 'history-copy', figure: `bulk copy ingest -> front through Redis (${what})`,
        value: seconds, unit: 's', baseline: null, ratio: null, target: '-', pass: null },
      { bench: 'history-copy', figure: 'copy rate', value: points / seconds, unit: 'points/s',
        baseline: null, ratio: null, target: '-', pass: null },
      { bench: 'history-copy', figure: 'event-loop delay while copying, p99 (both sides in ' +
        'one process)', value: loop.percentile(99) / 1e6, unit: 'ms', baseline: null,
      ratio: null, target: '-', pass: null },
      { bench: 'history-copy', figure: 'event-loop delay while copying, max', value: loop.max / 1e6,
        unit: 'ms', baseline: null, ratio: null, target: '-', pass: null },
      { bench: 'history-copy', figure: 'Redis memory above idle, peak while copying',
        value: (peakBytes - idleBytes) / 1024, unit: 'KB', baseline: null, ratio: null,
        target: '-', pass: null },
    ];
  } finally {
    probe.disconnect();
    await ingestLink.close();
    await frontLink.close();
    await front.close();
    await ingest.close();
    await redis.stop();
  }
}

if (process.argv[1]?.endsWith('history-copy.bench.ts')) {
  const chunk = process.argv.indexOf('--chunk-points');
  printRows(await run({ quick }, chunk < 0 ? undefined : Number(process.argv[chunk + 1])));
}
