// Turns `orderflow serve` flags and ORDERFLOW_* environment variables into a config override:
// flags win over the environment; resolveConfig validates the result field by field.
import type { ServiceConfig } from '../core/config.js';
import {
  ALLOWED_ENTRIES_MAX, hostList, isAllowedHostEntry, isAllowedOriginEntry,
} from '../core/config-hosts.js';
import { UsageError } from './cli.js';

export interface ServeFlags {
  port?: string; host?: string; 'data-dir'?: string; feed?: string; speed?: string;
  'clock-start'?: string; limits?: string; shards?: string; 'log-level'?: string;
  signup?: string;
  warmup?: string;
  informed?: string;
}

type Override = { -readonly [K in keyof ServiceConfig]?: ServiceConfig[K] };

function integer(name: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${name} must be a whole number (was '${text}')`);
  return Number(text);
}

function hours(name: string, text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text)) {
    throw new UsageError(`${name} must be a number of hours, 0 for none (was '${text}')`);
  }
  return Number(text);
}

/** `2,10,30`: pauses in seconds (decimals allowed); empty: none. */
function seconds(name: string, text: string): number[] {
  const parts = text.trim() === '' ? [] : text.split(',').map((part) => part.trim());
  if (!parts.every((part) => /^\d+(\.\d+)?$/.test(part))) {
    throw new UsageError(`${name} must be pauses in seconds separated by commas, e.g. 2,10,30 ` +
      `(was '${text}')`);
  }
  return parts.map(Number);
}

function speed(text: string): number {
  if (text === 'max') return Infinity;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) {
    throw new UsageError(`--speed must be a positive number or max (was '${text}')`);
  }
  return value;
}

/** `--informed`: a share from 0 to 1 (0 and 1 included). */
function share(name: string, text: string): number {
  if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(text.trim())) {
    throw new UsageError(`${name} must be a share from 0 to 1, e.g. 0.8; 0 is the null world ` +
      `(was '${text}')`);
  }
  return Number(text);
}

function instant(text: string): number {
  const ms = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(ms)) {
    throw new UsageError(`--clock-start must be an ISO 8601 instant (was '${text}')`);
  }
  return ms;
}

function feed(text: string, out: Override): void {
  if (text === 'sim' || text === 'live') {
    out.feed = text;
    return;
  }
  const match = /^replay:(.+)$/.exec(text);
  if (!match) throw new UsageError(`--feed must be sim, live or replay:FILE (was '${text}')`);
  out.feed = 'replay';
  out.replayFile = match[1];
}

function onOff(name: string, text: string): boolean {
  if (text === 'on') return true;
  if (text === 'off') return false;
  throw new UsageError(`${name} must be on or off (was '${text}')`);
}

/** A comma list of entries of one shape; the message names the variable and the bad entry. */
function entries(name: string, text: string, valid: (entry: string) => boolean,
  expected: string): string[] {
  const parts = hostList(text);
  const bad = parts.find((part) => !valid(part));
  if (bad !== undefined) {
    throw new UsageError(`${name} must be a comma list of ${expected} (was '${bad}' in ` +
      `'${text}')`);
  }
  if (parts.length > ALLOWED_ENTRIES_MAX) {
    throw new UsageError(`${name} must list at most ${ALLOWED_ENTRIES_MAX} entries ` +
      `(was ${parts.length})`);
  }
  return parts;
}

const list = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);

/** The override from flags and environment; every value is checked again by resolveConfig. */
export function serveOverride(flags: ServeFlags, env: Readonly<Record<string, string | undefined>>):
  Override {
  const pick = (flag: keyof ServeFlags, variable: string) => flags[flag] ?? env[variable];
  const out: Override = {};
  const port = pick('port', 'ORDERFLOW_PORT');
  if (port !== undefined) out.port = integer('--port', port);
  const host = pick('host', 'ORDERFLOW_HOST');
  if (host !== undefined) out.host = host;
  const dataDir = pick('data-dir', 'ORDERFLOW_DATA_DIR');
  if (dataDir !== undefined) out.dataDir = dataDir;
  const feedText = pick('feed', 'ORDERFLOW_FEED');
  if (feedText !== undefined) feed(feedText, out);
  const speedText = pick('speed', 'ORDERFLOW_SPEED');
  if (speedText !== undefined) out.speed = speed(speedText);
  const clockStart = pick('clock-start', 'ORDERFLOW_CLOCK_START');
  if (clockStart !== undefined) out.clockStartMs = instant(clockStart);
  const limitsText = pick('limits', 'ORDERFLOW_LIMITS');
  if (limitsText !== undefined) out.limitsEnabled = onOff('--limits', limitsText);
  const shards = pick('shards', 'ORDERFLOW_SHARDS');
  if (shards !== undefined) out.shards = integer('--shards', shards);
  const warmup = pick('warmup', 'ORDERFLOW_WARMUP_HOURS');
  if (warmup !== undefined) out.warmupHours = hours('--warmup', warmup);
  const informed = pick('informed', 'ORDERFLOW_SIM_INFORMED');
  if (informed !== undefined) out.simInformedShare = share('--informed', informed);
  const level = pick('log-level', 'ORDERFLOW_LOG_LEVEL');
  if (level !== undefined) out.logLevel = level as ServiceConfig['logLevel'];
  const signup = pick('signup', 'ORDERFLOW_SIGNUP');
  if (signup !== undefined) {
    if (signup !== 'open' && signup !== 'closed') {
      throw new UsageError(`--signup must be open or closed (was '${signup}')`);
    }
    out.signupOpen = signup === 'open';
  }
  if (env.ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS === '1') out.allowPrivateWebhooks = true;
  if (env.ORDERFLOW_HOME_WS_URL) out.homeWsUrl = env.ORDERFLOW_HOME_WS_URL;
  if (env.ORDERFLOW_HOME_INFO_URL) out.homeInfoUrl = env.ORDERFLOW_HOME_INFO_URL;
  const backfill = env.ORDERFLOW_BACKFILL_HOURS;
  if (backfill !== undefined) out.backfillHours = hours('ORDERFLOW_BACKFILL_HOURS', backfill);
  const backfillRetry = env.ORDERFLOW_BACKFILL_RETRY_S;
  if (backfillRetry !== undefined) out.backfillRetryS = seconds('ORDERFLOW_BACKFILL_RETRY_S',
    backfillRetry);
  const backfillWait = env.ORDERFLOW_BACKFILL_WAIT_S;
  if (backfillWait !== undefined) {
    out.backfillWaitS = integer('ORDERFLOW_BACKFILL_WAIT_S', backfillWait);
  }
  if (env.ORDERFLOW_CORS_ORIGINS) out.corsOrigins = list(env.ORDERFLOW_CORS_ORIGINS);
  if (env.ORDERFLOW_TRUST_PROXY) out.trustProxy = list(env.ORDERFLOW_TRUST_PROXY);
  if (env.ORDERFLOW_ALLOWED_HOSTS !== undefined) {
    out.allowedHosts = entries('ORDERFLOW_ALLOWED_HOSTS', env.ORDERFLOW_ALLOWED_HOSTS,
      isAllowedHostEntry, 'host names without scheme, port or path, e.g. orderflow.example.com');
  }
  if (env.ORDERFLOW_ALLOWED_ORIGINS !== undefined) {
    out.allowedOrigins = entries('ORDERFLOW_ALLOWED_ORIGINS', env.ORDERFLOW_ALLOWED_ORIGINS,
      isAllowedOriginEntry, 'origins (scheme://host[:port], no path), e.g. ' +
      'https://app.example.com');
  }
  if (env.ORDERFLOW_METRICS_PUBLIC === '1') out.metricsPublic = true;
  if (env.ORDERFLOW_KEYLESS_DAILY_LIMIT !== undefined) {
    out.keylessDailyLimit = integer('ORDERFLOW_KEYLESS_DAILY_LIMIT',
      env.ORDERFLOW_KEYLESS_DAILY_LIMIT);
  }
  if (env.ORDERFLOW_CHART_BASE_URL) out.chartBaseUrl = env.ORDERFLOW_CHART_BASE_URL;
  if (env.ORDERFLOW_HISTORY_MINUTE_DAYS !== undefined) {
    out.historyMinuteDays = integer('ORDERFLOW_HISTORY_MINUTE_DAYS',
      env.ORDERFLOW_HISTORY_MINUTE_DAYS);
  }
  if (env.ORDERFLOW_HISTORY_HOUR_DAYS !== undefined) {
    out.historyHourDays = integer('ORDERFLOW_HISTORY_HOUR_DAYS', env.ORDERFLOW_HISTORY_HOUR_DAYS);
  }
  for (const [name, field] of [['ORDERFLOW_FOOTPRINT_5M_DAYS', 'footprint5mDays'],
    ['ORDERFLOW_FOOTPRINT_15M_DAYS', 'footprint15mDays'],
    ['ORDERFLOW_FOOTPRINT_1H_DAYS', 'footprint1hDays']] as const) {
    const text = env[name];
    if (text !== undefined) out[field] = integer(name, text);
  }
  if (env.ORDERFLOW_WORKER_NICE !== undefined) {
    out.workerNice = integer('ORDERFLOW_WORKER_NICE', env.ORDERFLOW_WORKER_NICE);
  }
  if (env.ORDERFLOW_SIM_WALLETS !== undefined) {
    out.simWallets = integer('ORDERFLOW_SIM_WALLETS', env.ORDERFLOW_SIM_WALLETS);
  }
  return out;
}
