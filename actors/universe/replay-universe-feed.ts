// The main thread's UniverseFeed from a replay file: universe, funding and wallet lines on the
// data's clock (the same origin as the shards' replay feeds: the file's first event).
import { createReplayDriver, type ReplayDriver } from '../feed/replay/replay-driver.js';
import type { UniverseFeed, UniverseFeedDeps, UniverseFeedEvent } from './universe-types.js';

const UNIVERSE_TYPES = new Set(['universe', 'funding', 'wallet']);

export interface ReplayUniverseOptions extends UniverseFeedDeps {
  readonly file: string;
  readonly speed: number;
  readonly onEnd?: () => void;
}

export function createReplayUniverseFeed(options: ReplayUniverseOptions): UniverseFeed {
  let driver: ReplayDriver | null = null;
  return {
    start(sink) {
      if (driver) throw new Error('universe feed already started');
      driver = createReplayDriver({
        file: options.file, speed: options.speed, clock: options.clock,
        wants: (type) => UNIVERSE_TYPES.has(type),
        emit: (event) => sink(event as UniverseFeedEvent),
        bad: (reason) => options.logger.warn('replay line dropped', { reason }),
        onEnd: options.onEnd,
      });
      driver.start();
    },
    async stop() {
      driver?.stop();
    },
  };
}
