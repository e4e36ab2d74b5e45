// `orderflow serve`: runs the service in the foreground until SIGINT or SIGTERM.
import { ConfigError, resolveConfig } from '../../core/config.js';
import { createLogger } from '../../core/logger.js';
import type { Command } from '../cli.js';
import { parseOptions, UsageError } from '../cli.js';
import { serveOverride } from '../serve-config.js';
import { writeLoopStatsOnSignal } from '../loop-stats.js';
import { scaleOutOptions } from '../../scale-out/options.js';
import type { StopHang } from '../service.js';
import {
  armStopDeadline, processNowMs, serveExitCodes, shardStopShareMs, type StopDeadline,
} from '../stop-deadline.js';
import { startScaled } from '../scale-out/start.js';
import { historyBacklogMs } from '../../scale-out/history-backlog.js';
import { copyChunkPoints } from '../../scale-out/history-copy-chunk.js';
import {
  cpuNice, lowerCpuPriority, REALTIME_PRIORITY, realtimeWanted, useRealtimeScheduling,
} from '../../scale-out/cpu-priority.js';

const usage = `usage: orderflow serve [options]

  --port N             HTTP port (default 8080; 0 picks a free port)
  --host H             listen address (default 127.0.0.1)
  --data-dir D         data directory (default ./data)
  --feed F             sim (default), live, or replay:FILE
  --speed X            replay/simulator speed: a multiple of real time, or max
  --clock-start ISO    start the service clock at this instant
  --limits on|off      burst guard and daily quotas (off only on a loopback host)
  --shards N           worker threads for the pair actors (default: number of cores)
  --log-level L        debug, info, warn, error or silent
  --role R             all (default: one box), ingest or front (both need ORDERFLOW_REDIS_URL;
                       see docs/scale-out.md)
  --nice N             CPU priority, 0 (normal) to 19 (lowest); default 10 for --role ingest
                       (Redis and fronts on the same box run first), 0 otherwise
  --realtime           --role front only: run at the real-time round-robin policy (SCHED_RR 1),
                       so a woken front takes a busy core at once (needs CAP_SYS_NICE;
                       docs/scale-out.md, "Latency profile")
  --signup open|closed let anyone create a dashboard account (default closed)
  --warmup HOURS       simulator: market hours generated before /readyz (default 168; 0: none)
  --informed SHARE     simulator: share of news that reaches prices only through informed
                       order flow, 0 to 1 (default 0.8); 0 is the null world, where flow
                       carries no information about the next move (docs/feeds.md)

Environment: ORDERFLOW_PORT, ORDERFLOW_HOST, ORDERFLOW_DATA_DIR, ORDERFLOW_FEED, ORDERFLOW_SPEED,
ORDERFLOW_CLOCK_START, ORDERFLOW_LIMITS, ORDERFLOW_SHARDS, ORDERFLOW_LOG_LEVEL,
ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS=1, ORDERFLOW_HOME_WS_URL, ORDERFLOW_HOME_INFO_URL,
ORDERFLOW_CORS_ORIGINS, ORDERFLOW_TRUST_PROXY, ORDERFLOW_KEYLESS_DAILY_LIMIT,
ORDERFLOW_SIM_WALLETS (wallets the simulator reports, 1 to 10000; default 300),
ORDERFLOW_WARMUP_HOURS, ORDERFLOW_SIM_INFORMED, ORDERFLOW_ROLE, ORDERFLOW_NICE,
ORDERFLOW_REALTIME=1, ORDERFLOW_BACKFILL_HOURS, ORDERFLOW_BACKFILL_WAIT_S,
ORDERFLOW_BACKFILL_RETRY_S (live feed: candle backfill at start),
ORDERFLOW_REDIS_URL (redis://host:port: keys, limits and snapshots shared),
ORDERFLOW_HISTORY_BACKLOG_HOURS, ORDERFLOW_HISTORY_COPY_CHUNK_POINTS (scale-out history).
SIGINT or SIGTERM stops the service gracefully within 5 s: exit code 0 when everything was
saved, 3 when the stop was cut short (its deadline, or a second signal: stop at once); what was
acknowledged (keys, usage, outbox, alerts, signals) is on disk first either way.
`;

/** Test hook (test/e2e/stop.test.ts): a stop that cannot finish. */
function stopHangOf(value: string | undefined): StopHang | undefined {
  return value === 'shard' || value === 'main' ? value : undefined;
}

export const command: Command = {
  name: 'serve',
  summary: 'run the service',
  usage,
  async run(argv, io) {
    const { values } = parseOptions(argv, {
      port: { type: 'string' }, host: { type: 'string' }, 'data-dir': { type: 'string' },
      feed: { type: 'string' }, speed: { type: 'string' }, 'clock-start': { type: 'string' },
      limits: { type: 'string' }, shards: { type: 'string' }, 'log-level': { type: 'string' },
      role: { type: 'string' }, nice: { type: 'string' }, realtime: { type: 'boolean' },
      signup: { type: 'string' },
      warmup: { type: 'string' }, informed: { type: 'string' },
    });
    const scaleOut = scaleOutOptions(values.role, io.env);
    const nice = cpuNice(values.nice, io.env, scaleOut.role);
    const realtime = realtimeWanted(values.realtime, io.env, scaleOut.role);
    if (scaleOut.redisUrl !== null) { // a bad value stops here
      historyBacklogMs(io.env);
      copyChunkPoints(io.env);
    }
    let config;
    try {
      config = resolveConfig(serveOverride(values, io.env));
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    // A process lowered as a whole (--nice, ingest's default) keeps every thread at that one
    // priority: its workers are not lowered again below its main thread.
    if (nice > 0) config = { ...config, workerNice: 0 };
    const logger = createLogger({ level: config.logLevel });
    // Before the shard workers start: they inherit the main thread's priority.
    if (nice > 0) logger.info('cpu priority lowered', { nice, threads: lowerCpuPriority(nice) });
    if (realtime) {
      useRealtimeScheduling();
      logger.info('real-time scheduling', { policy: 'SCHED_RR', priority: REALTIME_PRIORITY });
    }
    // Bench instrumentation (bench/README.md, "Tail latency"): not a user setting.
    const loopStatsFile = io.env.ORDERFLOW_LOOP_STATS_FILE;
    if (loopStatsFile) writeLoopStatsOnSignal(loopStatsFile);
    // Signals are handled from the start: one that arrives while the shards boot stops the
    // service as soon as it is up, so nothing opened is left unflushed.
    let stopStartedAtMs: number | null = null;
    let deadline: StopDeadline | null = null;
    /** The deadline runs from the first signal, also one that came while starting. */
    const beginStop = (): number => {
      if (stopStartedAtMs === null) {
        stopStartedAtMs = processNowMs();
        deadline = armStopDeadline(logger, stopStartedAtMs);
      }
      return stopStartedAtMs;
    };
    const exit = (code: number, forced = false) => deadline?.exit(code, forced) ??
      process.exit(code);
    let stopNow: (signal: string) => void = (signal) => {
      if (stopStartedAtMs !== null) return;
      logger.info('stop requested while starting', { signal });
      beginStop();
    };
    process.on('SIGINT', () => stopNow('SIGINT'));
    process.on('SIGTERM', () => stopNow('SIGTERM'));
    const service = await startScaled(scaleOut, config, {
      logger, stopHang: stopHangOf(io.env.ORDERFLOW_TEST_STOP_HANG),
      onListening: (baseUrl) => io.stdout(`orderflow listening on ${baseUrl} (feed ` +
        `${config.feed}, ${config.shards} shards, data ${config.dataDir}); /readyz turns ready ` +
        'when every tracked pair has published\n'),
    });
    logger.info('ready', { baseUrl: service.baseUrl });
    let stopping = false;
    stopNow = (signal) => {
      if (stopping) {
        // A second signal: stop at once, as soon as what was acknowledged is on disk.
        logger.warn('second signal: stopping at once',
          { signal, exitCode: serveExitCodes.cutShort });
        void (service.acknowledgedFlushed?.() ?? Promise.resolve())
          .then(() => exit(serveExitCodes.cutShort, true));
        return;
      }
      stopping = true;
      logger.info('stopping', { signal });
      const sinceStartMs = processNowMs() - beginStop();
      const stop = service.stopWithin?.(performance.now() - sinceStartMs + shardStopShareMs) ??
        service.stop().then(() => ({ clean: true }));
      stop.then(
        (result) => exit(result.clean ? serveExitCodes.clean : serveExitCodes.cutShort),
        (error: Error) => {
          logger.error('stop failed', { error: error.message });
          exit(serveExitCodes.failed, true);
        },
      );
    };
    if (stopStartedAtMs !== null) stopNow('requested while starting');
    return -1;
  },
};
