// What the universe feed (main thread) emits and how it is started.
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { FundingEvent, UniverseEvent, WalletStateEvent } from '../../core/messages.js';

export type UniverseFeedEvent = UniverseEvent | FundingEvent | WalletStateEvent;

export interface UniverseFeed {
  /** universe (all listed markets with ctx), funding (five venues) and wallet events. */
  start(sink: (event: UniverseFeedEvent) => void): void;
  stop(): Promise<void>;
}

export interface UniverseFeedDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Market-time interval between universe and funding refreshes. */
  readonly cadenceMs: number;
  /** Market-time interval between wallet-state rounds (default 60 s). */
  readonly walletCadenceMs?: number;
  /** Wallets to report (live: polled with clearinghouseState; sim: its tracked population). */
  readonly wallets?: readonly string[];
  /** Simulator: market time the shards reached; the universe does not run ahead of it. */
  readonly marketLimitMs?: () => number;
}
