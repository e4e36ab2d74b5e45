// `orderflow record`: writes a feed's normalized events, one JSON per line, in the format that
// `--feed replay:FILE` reads. The simulator records in market time (faster than real time with
// --speed max); the live venue records for --duration seconds of wall time.
import type { Command, CommandIo } from '../cli.js';
import { UsageError, parseOptions } from '../cli.js';
import { defaultConfig } from '../../core/config.js';
import { systemClock } from '../../core/clock.js';
import { createLogger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import { replayFormatOf } from '../../actors/feed/replay/compact-format.js';
import { LineWriter } from '../../actors/feed/replay/line-writer.js';
import { runSimSession } from '../../actors/feed/sim/sim-session.js';
import { recordLive } from '../../actors/feed/record-live.js';

const usage = `usage: orderflow record --out FILE.ndjson [--feed sim|live] [--duration S]
                        [--speed X|max] [--seed N] [--start ISO] [--cadence-ms N] [--tracked N]
                        [--format json|compact|binary]

  --out FILE       replay file to write (one normalized event per line)
  --feed           sim (default) or live (ORDERFLOW_HOME_WS_URL, ORDERFLOW_HOME_INFO_URL)
  --duration S     seconds to record: market time for sim, wall time for live (default 60)
  --speed X|max    sim only: multiple of real time, max = as fast as possible (default max)
  --seed N         sim seed (default ${defaultConfig.simSeed})
  --start ISO      sim start instant (default: now, whole second)
  --cadence-ms N   universe and funding refresh interval
                   (default ${defaultConfig.universeCadenceMs})
  --tracked N      pairs recorded: the top N by 24h volume (default 100)
  --format F       json (default: one JSON event per line), compact (a versioned text format
                   about 40 % of the size that replays 2-3x faster) or binary (fixed-layout
                   records, the fastest to replay; see docs/feeds.md)
`;

function positiveNumber(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) {
    throw new UsageError(`${flag} must be a positive number (was '${text}')`);
  }
  return value;
}

function parseSpeed(text: string | undefined): number {
  if (text === undefined || text === 'max') return Infinity;
  return positiveNumber('--speed', text, 1);
}

function parseStart(text: string | undefined): number {
  if (text === undefined) return Math.floor(systemClock.nowMs() / 1000) * 1000;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) {
    throw new UsageError(`--start must be an ISO 8601 instant (was '${text}')`);
  }
  return ms;
}

async function run(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseOptions(argv, {
    out: { type: 'string' }, feed: { type: 'string' }, duration: { type: 'string' },
    speed: { type: 'string' }, seed: { type: 'string' }, start: { type: 'string' },
    'cadence-ms': { type: 'string' }, tracked: { type: 'string' }, format: { type: 'string' },
  });
  const format = replayFormatOf(values.format);
  if (format === null) {
    throw new UsageError(`--format must be json, compact or binary (was '${values.format}')`);
  }
  if (!values.out) throw new UsageError('--out FILE is required');
  const feed = values.feed ?? 'sim';
  if (feed !== 'sim' && feed !== 'live') {
    throw new UsageError(`--feed must be sim or live (was '${feed}')`);
  }
  const durationMs = positiveNumber('--duration', values.duration, 60) * 1000;
  const cadenceMs = positiveNumber('--cadence-ms', values['cadence-ms'],
    defaultConfig.universeCadenceMs);
  const tracked = Math.floor(positiveNumber('--tracked', values.tracked, 100));
  // Every option is checked before the output file is opened: bad input leaves no file behind.
  const seed = Math.floor(positiveNumber('--seed', values.seed, defaultConfig.simSeed));
  const startMs = parseStart(values.start);
  const speed = parseSpeed(values.speed);
  const writer = new LineWriter(values.out, { format });
  const counts: Record<string, number> = {};
  const sink = (e: MarketEvent) => {
    counts[e.type] = (counts[e.type] ?? 0) + 1;
    writer.write(e);
  };
  try {
    if (feed === 'sim') {
      await runSimSession({ seed, startMs, durationMs, cadenceMs, speed, clock: systemClock,
        trackedCount: tracked }, sink).done;
    } else {
      await recordLive({
        wsUrl: io.env.ORDERFLOW_HOME_WS_URL ?? defaultConfig.homeWsUrl,
        infoUrl: io.env.ORDERFLOW_HOME_INFO_URL ?? defaultConfig.homeInfoUrl,
        durationMs, cadenceMs, tracked, clock: systemClock,
        logger: createLogger({ level: 'warn', write: (l) => io.stderr(l + '\n') }),
      }, sink);
    }
  } finally {
    writer.close();
  }
  io.stdout(`recorded ${writer.lines} events to ${values.out} ${JSON.stringify(counts)}\n`);
  return 0;
}

export const command: Command = {
  name: 'record',
  summary: 'record a feed to a replay file',
  usage,
  run,
};
