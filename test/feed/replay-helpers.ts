// Makes, writes and reads replay files for the format tests, and plays a replay file to its
// end at --speed max through a shard's pair feed and through the universe feed, as the service
// would: what each delivered, for comparing replays.
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import { createPairFeed } from '../../actors/feed/pair-feed.js';
import type { FeedStats } from '../../actors/feed/feed-types.js';
import type { ReplayFormat } from '../../actors/feed/replay/compact-format.js';
import { readReplayFile } from '../../actors/feed/replay/convert-replay.js';
import { LineWriter } from '../../actors/feed/replay/line-writer.js';
import { runSimSession } from '../../actors/feed/sim/sim-session.js';
import { createUniverseFeed } from '../../actors/universe/universe-feed.js';
import { eventually } from '../helpers/eventually.js';

const START_MS = Date.parse('2026-02-06T15:00:00Z');

/** A simulated session of six tracked pairs: every event type the formats must carry. */
export async function simEvents(seed: number, seconds: number): Promise<MarketEvent[]> {
  const events: MarketEvent[] = [];
  await runSimSession({ seed, startMs: START_MS, durationMs: seconds * 1000, speed: Infinity,
    clock: systemClock, cadenceMs: 5_000, trackedCount: 6 }, (e) => { events.push(e); }).done;
  return events;
}

/** Writes `events` to `file` in `format`; the events written. */
export function writeEvents(file: string, events: readonly MarketEvent[], format: ReplayFormat,
  flushBytes?: number): number {
  const writer = new LineWriter(file, { format, flushBytes });
  for (const e of events) writer.write(e);
  writer.close();
  return writer.lines;
}

/** Every event of `file`, and its bad lines or records as `<number>: <reason>`. */
export function readAll(file: string): { events: MarketEvent[]; bad: string[] } {
  const events: MarketEvent[] = [];
  const bad: string[] = [];
  readReplayFile(file, (e) => events.push(e), (n, reason) => bad.push(`${n}: ${reason}`));
  return { events, bad };
}

/** The symbols that trade in `events`. */
export function tradedSymbols(events: readonly MarketEvent[]): string[] {
  return [...new Set(events.flatMap((e) => e.type === 'trade' ? [e.symbol] : []))];
}

/** What a shard owning `shard` and the universe feed receive from the file, and the drops. */
export async function playAll(file: string, shard: readonly string[]) {
  const { out, stats } = await playPairs(file, shard);
  return { out, universe: await playUniverse(file), dropped: stats.dropped };
}

/** The pair events a shard owning `symbols` receives from the file, and its feed's counters. */
export async function playPairs(file: string, symbols: readonly string[]):
  Promise<{ out: MarketEvent[]; stats: FeedStats }> {
  const out: MarketEvent[] = [];
  let ended = false;
  const feed = createPairFeed({ kind: 'replay', file, speed: Infinity },
    { clock: systemClock, logger: silentLogger, onEnd: () => { ended = true; } });
  feed.setSymbols(symbols);
  feed.start((e) => out.push(e));
  await eventually(() => ended);
  await feed.stop();
  return { out, stats: feed.stats() };
}

/** The universe, funding and wallet events the main thread receives from the file. */
export async function playUniverse(file: string): Promise<MarketEvent[]> {
  const universe: MarketEvent[] = [];
  let ended = false;
  const feed = createUniverseFeed({ kind: 'replay', file, speed: Infinity },
    { clock: systemClock, logger: silentLogger, cadenceMs: 5_000,
      onEnd: () => { ended = true; } });
  feed.start((e) => universe.push(e));
  await eventually(() => ended);
  await feed.stop();
  return universe;
}
