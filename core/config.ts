// Service configuration: one set of defaults, merged with an override, validated field by field,
// frozen, and passed in explicitly. Every bound of the service is declared here.
import { availableParallelism } from 'node:os';
import { ALLOWED_ENTRIES_MAX, isAllowedHostEntry, isAllowedOriginEntry } from './config-hosts.js';
import { workerNiceDefault } from './thread-priority.js';

/** The simulator's informed world by default: most news is learned from the informed flow. */
export const INFORMED_SHARE_DEFAULT = 0.8;

/** Bounds on every queue, buffer and table (TigerStyle "a limit on everything"). */
export const limits = Object.freeze({
  /** Orderflow-tracked pairs (docs/decisions.md, "Feeds and freshness"). */
  trackedPairsMax: 100,
  /** A tracked pair leaves the set only below this rank (hysteresis, docs/decisions.md). */
  trackedRankExitMax: 110,
  /** Listed markets across the main and builder dexes. */
  marketsMax: 2000,
  /** Shards (worker threads). */
  shardsMax: 16,
  /**
   * Events one pair's mailbox holds before it drops the oldest (and counts them). Mailboxes
   * drain every event-loop turn and feeds emit at most a few thousand events a turn, so this is
   * headroom, not a working size: 100 pairs x 8192 x ~150 B bounds the worst case near 120 MB.
   */
  pairMailboxEventsMax: 8_192,
  /** The longest simulator warm-up: the bar history the store keeps (7 days) and a week more. */
  warmupHoursMax: 336,
  /** A request to a shard that gets no answer within this is abandoned. */
  shardRequestTimeoutMs: 2_000,
  /** Assigning pairs creates one actor per pair (all 100 at start): it gets longer. */
  shardAssignTimeoutMs: 15_000,
  /**
   * A shard whose event loop shows no progress (shard-board.ts) for this long is hung and
   * restarted; a crash is seen at once, by the worker's exit. Progress is a counter the worker
   * bumps from a timer, which work cannot queue behind as it could a ping: a busy shard on a
   * loaded machine is slow, not dead, and a ping would have it restarted in a loop.
   */
  shardStallTimeoutMs: 10_000,
  /** The first restart's delay; each failure within the window doubles it, up to the max. */
  shardRestartDelayMs: 500,
  shardRestartDelayMsMax: 30_000,
  /** This many failures of one shard within the window: it stays down, the service degraded. */
  shardFailuresMax: 5,
  shardFailureWindowMs: 600_000,
  httpUrlBytesMax: 2_048,
  httpHeaderBytesMax: 8_192,
  httpBodyBytesMax: 1_048_576,
  httpBackpressureBytesMax: 4_194_304,
  webhookOutboxMax: 1_000_000,
  webhookInFlightPerEndpointMax: 4,
  webhookInFlightMax: 256,
  mcpSessionsMax: 1_000,
  walletsTrackedMax: 10_000,
});

export type FeedKind = 'sim' | 'live' | 'replay';

export interface ServiceConfig {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly feed: FeedKind;
  /** The replay file when feed is 'replay'. */
  readonly replayFile: string | null;
  /** Replay and simulator speed, a multiple of real time; Infinity is `--speed max`. */
  readonly speed: number;
  /** Service clock start (epoch ms), or null for the wall clock. */
  readonly clockStartMs: number | null;
  /** false with `--limits off`: burst guard and daily quotas off (loopback only). */
  readonly limitsEnabled: boolean;
  readonly allowPrivateWebhooks: boolean;
  /** `--signup open`: anyone may create a dashboard account (default closed). */
  readonly signupOpen: boolean;
  readonly homeWsUrl: string;
  readonly homeInfoUrl: string;
  readonly corsOrigins: readonly string[];
  /** Addresses or CIDRs of trusted reverse proxies (X-Forwarded-For). */
  readonly trustProxy: readonly string[];
  /**
   * Host names accepted besides the loopback ones while listening on a loopback address
   * (ORDERFLOW_ALLOWED_HOSTS): a reverse proxy's public name, for instance.
   */
  readonly allowedHosts: readonly string[];
  /** Browser origins, besides the service's own, let into MCP and the account API. */
  readonly allowedOrigins: readonly string[];
  /** Serve /metrics to non-loopback peers too. */
  readonly metricsPublic: boolean;
  readonly shards: number;
  /**
   * Nice increment of the worker threads (shards, views worker) over the main thread's, which
   * answers the requests (ORDERFLOW_WORKER_NICE; 0 leaves them equal; Linux only).
   */
  readonly workerNice: number;
  /** How often shards publish snapshots: the producer cadence of the orderflow views. */
  readonly cadenceMs: number;
  /** How often the universe (screener, funding) is refreshed. */
  readonly universeCadenceMs: number;
  /** Daily quota of keyless requests per client IP. */
  readonly keylessDailyLimit: number;
  readonly chartBaseUrl: string;
  readonly simSeed: number;
  /**
   * Wallets whose account states the simulator reports (ORDERFLOW_SIM_WALLETS), up to
   * limits.walletsTrackedMax; also sizes the population its trades name (docs/feeds.md).
   */
  readonly simWallets: number;
  /**
   * Simulator: share of the fundamental's news that reaches prices only through informed order
   * flow (`--informed`, ORDERFLOW_SIM_INFORMED; 0..1). 0 is the null world: flow carries no
   * information about the next move (docs/feeds.md, "Price discovery").
   */
  readonly simInformedShare: number;
  /**
   * Market hours before the start the simulator generates for every tracked pair before
   * /readyz (`--warmup`, ORDERFLOW_WARMUP_HOURS; 0: none). The default covers every window:
   * VPIN's level needs 150 volume buckets (three trading days; a week for session markets).
   */
  readonly warmupHours: number;
  /**
   * Live feed: market hours of candles backfilled from the info endpoint at start (1-minute
   * ones for the newest 4 h, 5-minute ones before; ORDERFLOW_BACKFILL_HOURS; 0: none).
   */
  readonly backfillHours: number;
  /** Live feed: longest /readyz waits for the backfill, in seconds (ORDERFLOW_BACKFILL_WAIT_S). */
  readonly backfillWaitS: number;
  /**
   * Live feed: pauses in seconds before a pair whose backfill request brought nothing (5xx, bad
   * JSON, timeout) is asked again, one per retry (ORDERFLOW_BACKFILL_RETRY_S; empty: none).
   */
  readonly backfillRetryS: readonly number[];
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Days of 1-minute and of 1-hour history points kept (docs/history.md). */
  readonly historyMinuteDays: number;
  readonly historyHourDays: number;
  /** Days of 5m, 15m and 1h footprint bars kept (docs/footprint.md, "Store"). */
  readonly footprint5mDays: number;
  readonly footprint15mDays: number;
  readonly footprint1hDays: number;
}

export const defaultConfig: ServiceConfig = Object.freeze({
  host: '127.0.0.1',
  port: 8080,
  dataDir: './data',
  feed: 'sim',
  replayFile: null,
  speed: 1,
  clockStartMs: null,
  limitsEnabled: true,
  allowPrivateWebhooks: false,
  signupOpen: false,
  homeWsUrl: 'wss://api.hyperliquid.xyz/ws',
  homeInfoUrl: 'https://api.hyperliquid.xyz/info',
  corsOrigins: Object.freeze(['*']),
  trustProxy: Object.freeze([]),
  allowedHosts: Object.freeze([]),
  allowedOrigins: Object.freeze([]),
  metricsPublic: false,
  shards: Math.max(1, Math.min(limits.shardsMax, availableParallelism())),
  workerNice: workerNiceDefault,
  cadenceMs: 1_000,
  universeCadenceMs: 5_000,
  keylessDailyLimit: 10,
  chartBaseUrl: 'http://127.0.0.1:8080/chart',
  simSeed: 42,
  simWallets: 300,
  simInformedShare: INFORMED_SHARE_DEFAULT,
  warmupHours: 168,
  backfillHours: 83,
  backfillWaitS: 30,
  backfillRetryS: [2, 10, 30],
  logLevel: 'info',
  historyMinuteDays: 7,
  historyHourDays: 180,
  footprint5mDays: 7,
  footprint15mDays: 14,
  footprint1hDays: 30,
});

/** A configuration value that is not what it should be; the message names the field. */
export class ConfigError extends Error {
  constructor(field: string, expected: string, found: unknown) {
    super(`config.${field} must be ${expected} (was ${JSON.stringify(found) ?? String(found)})`);
    this.name = 'ConfigError';
  }
}

function check(ok: boolean, field: string, expected: string, found: unknown): void {
  if (!ok) throw new ConfigError(field, expected, found);
}

const isInt = (v: unknown, min: number, max: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** Merges an override into the defaults, validates every field and freezes the result. */
export function resolveConfig(override: Partial<ServiceConfig> = {}): ServiceConfig {
  const c = { ...defaultConfig, ...override };
  check(typeof c.host === 'string' && c.host.length > 0, 'host', 'a host name or address', c.host);
  check(isInt(c.port, 0, 65535), 'port', 'an integer from 0 to 65535', c.port);
  check(typeof c.dataDir === 'string' && c.dataDir.length > 0, 'dataDir', 'a path', c.dataDir);
  check(['sim', 'live', 'replay'].includes(c.feed), 'feed', 'sim, live or replay:FILE', c.feed);
  check(c.feed !== 'replay' || !!c.replayFile, 'replayFile', 'a file for replay', c.replayFile);
  check(typeof c.speed === 'number' && c.speed > 0, 'speed', 'a positive number or max', c.speed);
  check(
    c.clockStartMs === null || Number.isFinite(c.clockStartMs),
    'clockStartMs', 'an ISO 8601 instant', c.clockStartMs,
  );
  check(/^wss?:\/\//.test(c.homeWsUrl), 'homeWsUrl', 'a ws:// or wss:// URL', c.homeWsUrl);
  check(/^https?:\/\//.test(c.homeInfoUrl), 'homeInfoUrl', 'an http(s) URL', c.homeInfoUrl);
  check(isInt(c.shards, 1, limits.shardsMax), 'shards', `1 to ${limits.shardsMax}`, c.shards);
  check(isInt(c.workerNice, 0, 19), 'workerNice', 'an integer from 0 to 19', c.workerNice);
  check(isInt(c.cadenceMs, 10, 60_000), 'cadenceMs', 'an integer from 10 to 60000', c.cadenceMs);
  check(
    isInt(c.universeCadenceMs, 10, 600_000),
    'universeCadenceMs', 'an integer from 10 to 600000', c.universeCadenceMs,
  );
  check(
    isInt(c.keylessDailyLimit, 0, 1e9),
    'keylessDailyLimit', 'a non-negative integer', c.keylessDailyLimit,
  );
  check(
    isInt(c.simWallets, 1, limits.walletsTrackedMax),
    'simWallets', `an integer from 1 to ${limits.walletsTrackedMax}`, c.simWallets,
  );
  check(
    typeof c.simInformedShare === 'number' && c.simInformedShare >= 0 && c.simInformedShare <= 1,
    'simInformedShare', 'a number from 0 to 1', c.simInformedShare,
  );
  check(
    typeof c.warmupHours === 'number' && c.warmupHours >= 0 &&
      c.warmupHours <= limits.warmupHoursMax,
    'warmupHours', `a number of hours from 0 to ${limits.warmupHoursMax}`, c.warmupHours,
  );
  check(typeof c.backfillHours === 'number' && c.backfillHours >= 0 && c.backfillHours <= 336,
    'backfillHours', 'a number of hours from 0 to 336', c.backfillHours);
  check(isInt(c.backfillWaitS, 0, 3_600), 'backfillWaitS', 'an integer from 0 to 3600',
    c.backfillWaitS);
  check(Array.isArray(c.backfillRetryS) && c.backfillRetryS.length <= 10 &&
    c.backfillRetryS.every((s) => typeof s === 'number' && s >= 0 && s <= 600),
  'backfillRetryS', 'at most 10 pauses, each from 0 to 600 seconds', c.backfillRetryS);
  check(
    ['debug', 'info', 'warn', 'error', 'silent'].includes(c.logLevel),
    'logLevel', 'debug, info, warn, error or silent', c.logLevel,
  );
  check(isInt(c.historyMinuteDays, 1, 3_650), 'historyMinuteDays', 'an integer from 1 to 3650',
    c.historyMinuteDays);
  check(isInt(c.historyHourDays, c.historyMinuteDays, 3_650), 'historyHourDays',
    'an integer from historyMinuteDays to 3650', c.historyHourDays);
  for (const field of ['footprint5mDays', 'footprint15mDays', 'footprint1hDays'] as const) {
    check(isInt(c[field], 1, 3_650), field, 'an integer from 1 to 3650', c[field]);
  }
  check(Array.isArray(c.allowedHosts) && c.allowedHosts.length <= ALLOWED_ENTRIES_MAX &&
    c.allowedHosts.every(isAllowedHostEntry), 'allowedHosts',
  `at most ${ALLOWED_ENTRIES_MAX} lower-case host names without scheme, port or path`,
  c.allowedHosts);
  check(Array.isArray(c.allowedOrigins) && c.allowedOrigins.length <= ALLOWED_ENTRIES_MAX &&
    c.allowedOrigins.every(isAllowedOriginEntry), 'allowedOrigins',
  `at most ${ALLOWED_ENTRIES_MAX} lower-case origins like https://app.example.com`,
  c.allowedOrigins);
  if (!c.limitsEnabled) {
    check(isLoopbackHost(c.host), 'limitsEnabled', 'on unless host is loopback', c.host);
  }
  return Object.freeze({
    ...c,
    corsOrigins: Object.freeze([...c.corsOrigins]),
    trustProxy: Object.freeze([...c.trustProxy]),
    allowedHosts: Object.freeze([...c.allowedHosts]),
    allowedOrigins: Object.freeze([...c.allowedOrigins]),
  });
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

// Relationship asserts between the bounds, checked once at load.
if (limits.trackedRankExitMax < limits.trackedPairsMax) throw new Error('rank exit < tracked');
if (limits.webhookInFlightPerEndpointMax > limits.webhookInFlightMax) {
  throw new Error('per-endpoint in-flight bound exceeds the overall bound');
}
if (limits.shardRestartDelayMsMax < limits.shardRestartDelayMs) {
  throw new Error('the longest restart delay is shorter than the first');
}
