// The pair actor: an in-memory child of its shard holding one tracked pair's analytics. It drains
// its mailbox in batches, synchronously, and hands its views to the shard once per cadence.
import type { Mailbox } from './mailbox.js';
import type { PairEngine, PairPublish } from './pair-engine.js';
import { createPairEngine } from './pair-engine.js';

export interface PairActorParams {
  readonly symbol: string;
  readonly mailbox: Mailbox;
  readonly cadenceMs: number;
}

type Lifecycle = 'ready' | 'running' | 'stopped' | 'faulted';

interface SelfActor {
  getCustomParameters(): PairActorParams;
}

export default class PairActor {
  private engine!: PairEngine;
  private mailbox!: Mailbox;
  state: Lifecycle = 'ready';

  initialize(self: SelfActor): void {
    const params = self.getCustomParameters();
    this.mailbox = params.mailbox;
    this.engine = createPairEngine(params.symbol, {
      cadenceMs: params.cadenceMs,
    });
    this.state = 'running';
  }

  /** Applies every queued event. A corrupt event faults the pair (crash-only, STYLE.md 5). */
  drain(): number {
    if (this.state !== 'running') return 0;
    try {
      return this.engine.drain(this.mailbox);
    } catch (error) {
      this.state = 'faulted';
      throw error;
    }
  }

  /** Views if anything changed since the last publish, with what was detected meanwhile. */
  publish(nowMs: number): PairPublish | null {
    if (this.state !== 'running') return null;
    return this.engine.publish(nowMs);
  }

  destroy(): void {
    this.state = 'stopped';
    this.mailbox.clear();
  }
}
