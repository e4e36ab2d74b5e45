// Polls the tracked wallets' account states on a cadence, a bounded batch per tick, through a
// poll function the runtime passes (live: clearinghouseState via the shared request budget).
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { WalletStateEvent } from '../../core/messages.js';

/** Resolves the wallet's state, or null when there is none or the request failed. */
export type PollWallet = (address: string) => Promise<WalletStateEvent | null>;

/**
 * What the poller asks and tells: the tracker itself, or the views worker's tracker through the
 * worker protocol (its answers then come a message later).
 */
export interface WalletPollTarget {
  dueForPoll(nowMs: number, max: number): readonly string[] | Promise<readonly string[]>;
  /** false when the state was refused. */
  applyState(event: WalletStateEvent): boolean;
  pollFailed(address: string, nowMs: number): void;
}

export interface WalletPollerDeps {
  readonly tracker: WalletPollTarget;
  readonly poll: PollWallet;
  /** The poll (service) clock: the request budget runs in real time. */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly cadenceMs: number;
  /** Polls started per tick at most: the share of the request budget positioning may use. */
  readonly batchMax: number;
}

export interface PollTickResult {
  readonly polled: number;
  readonly applied: number;
  readonly failed: number;
}

export interface WalletPoller {
  start(): void;
  /** One round now; a round already running is awaited instead of overlapped. */
  tick(): Promise<PollTickResult>;
  stop(): Promise<void>;
}

export function createWalletPoller(deps: WalletPollerDeps): WalletPoller {
  if (!(deps.cadenceMs > 0) || !Number.isInteger(deps.batchMax) || deps.batchMax < 1) {
    throw new RangeError('wallet poller needs cadenceMs > 0 and an integer batchMax >= 1');
  }
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<PollTickResult> | null = null;

  const round = async (): Promise<PollTickResult> => {
    const addresses = await deps.tracker.dueForPoll(deps.clock.nowMs(), deps.batchMax);
    const settled = await Promise.allSettled(addresses.map((address) => deps.poll(address)));
    let applied = 0;
    settled.forEach((outcome, i) => {
      const address = addresses[i];
      const state = outcome.status === 'fulfilled' ? outcome.value : null;
      // A state for another address than asked is a broken adapter: count it as a failure.
      if (state !== null && state.address.toLowerCase() === address &&
        deps.tracker.applyState(state)) {
        applied++;
        return;
      }
      if (state === null || state.address.toLowerCase() !== address) {
        deps.tracker.pollFailed(address, deps.clock.nowMs());
      }
      if (outcome.status === 'rejected') {
        deps.logger.warn('wallet poll failed', { address, error: String(outcome.reason) });
      }
    });
    return { polled: addresses.length, applied, failed: addresses.length - applied };
  };

  const tick = (): Promise<PollTickResult> => {
    if (running !== null) return running;
    running = round().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    start() {
      if (timer !== null) return;
      timer = setInterval(() => {
        tick().catch((error: unknown) =>
          deps.logger.error('wallet poll round failed', { error: String(error) }));
      }, deps.cadenceMs);
    },
    tick,
    async stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      if (running !== null) await running.catch(() => undefined);
    },
  };
}
