// Starts the process's role: one box (no Redis), ingest (everything, publishing to Redis) or a
// front (HTTP only, fed from Redis). `orderflow serve` calls this; tests and benches may too.
import { shiftedClock, systemClock } from '../../core/clock.js';
import type { ServiceConfig } from '../../core/config.js';
import { UsageError } from '../cli.js';
import { startService, type ServiceDeps, type StopResult } from '../service.js';
import { startFrontService } from './front-service.js';
import type { ScaleOutOptions } from '../../scale-out/options.js';
import { openSharedState } from '../../scale-out/shared-state.js';

export interface RunningRole {
  readonly baseUrl: string;
  stop(): Promise<void>;
  /** A stop bounded for the shards (a role without shards stops with stop()). */
  stopWithin?(shardsUntilMs: number): Promise<StopResult>;
  /** Settles once a stop has put everything acknowledged on disk. */
  acknowledgedFlushed?(): Promise<void>;
}

/** The test hook of RedisLinkOptions: only the tests set it (test/scale-out/redis-restarts). */
function testReadyBlockMs(env: Readonly<Record<string, string | undefined>>): number {
  const text = env.ORDERFLOW_TEST_REDIS_READY_BLOCK_MS;
  if (text === undefined || text === '') return 0;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 0 || ms > 10_000) {
    throw new UsageError('ORDERFLOW_TEST_REDIS_READY_BLOCK_MS must be an integer from 0 to ' +
      `10000 (was '${text}')`);
  }
  return ms;
}

export async function startScaled(options: ScaleOutOptions, config: ServiceConfig,
  deps: ServiceDeps): Promise<RunningRole> {
  if (options.redisUrl === null) return startService(config, deps);
  const clock = deps.clock ??
    (config.clockStartMs === null ? systemClock : shiftedClock(config.clockStartMs));
  const shared = await openSharedState(options.redisUrl, clock, deps.logger,
    { testReadyBlockMs: testReadyBlockMs(process.env) });
  deps.logger.info('scale-out', { role: options.role });
  try {
    return options.role === 'front'
      ? await startFrontService(config, { ...deps, clock, shared })
      : await startService(config, { ...deps, clock, shared });
  } catch (error) {
    await shared.close();
    throw error;
  }
}
