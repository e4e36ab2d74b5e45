// The pair actor: an in-memory child of its shard holding one tracked pair's analytics. It drains
// its mailbox in batches, synchronously, and hands its views to the shard once per cadence.
import type { AssetCtx } from '../../core/messages.js';
import type { Mailbox } from './mailbox.js';
import type { PairEngine, PairPublish, RestoreResult } from './pair-engine.js';
import { createPairEngine } from './pair-engine.js';

export interface PairActorParams {
  readonly symbol: string;
  readonly mailbox: Mailbox;
  readonly cadenceMs: number;
  /** The universe's context of the pair (live backfill; see PairEngineOptions). */
  readonly context?: AssetCtx;
  /** The shard's metrics: each drain's time (shard-meters.ts). */
  readonly meters?: { slice(seconds: number): void };
}

type Lifecycle = 'ready' | 'running' | 'stopped' | 'faulted';

interface SelfActor {
  getCustomParameters(): PairActorParams;
}

export default class PairActor {
  private engine!: PairEngine;
  private mailbox!: Mailbox;
  private meters: PairActorParams['meters'];
  state: Lifecycle = 'ready';

  initialize(self: SelfActor): void {
    const params = self.getCustomParameters();
    this.mailbox = params.mailbox;
    this.meters = params.meters;
    this.engine = createPairEngine(params.symbol, {
      cadenceMs: params.cadenceMs, context: params.context,
    });
    this.state = 'running';
  }

  /** Applies every queued event. A corrupt event faults the pair (crash-only: it restarts). */
  drain(): number {
    if (this.state !== 'running') return 0;
    const startMs = performance.now();
    try {
      return this.engine.drain(this.mailbox);
    } catch (error) {
      this.state = 'faulted';
      throw error;
    } finally {
      this.meters?.slice((performance.now() - startMs) / 1000);
    }
  }

  /**
   * Views if anything changed since the last publish, with what was detected meanwhile. Events
   * still queued are folded first: a publish asked for right after a warm-up's last slice (whose
   * drain may come later) still reaches the start.
   */
  publish(nowMs: number): PairPublish | null {
    if (this.state !== 'running') return null;
    if (this.mailbox.length > 0) this.drain();
    return this.engine.publish(nowMs);
  }

  /**
   * publish and the pair's saved state in one step: nothing can fold in between, so the state
   * holds exactly what the published outputs came from (a restore neither repeats nor loses
   * a closed bar or a signal).
   */
  publishAndSave(nowMs: number): { out: PairPublish | null; state: Uint8Array | null } {
    const out = this.publish(nowMs);
    return { out, state: this.state === 'running' ? this.engine.saveState() : null };
  }

  /** Restores a saved state into this fresh pair, before its first event and publish. */
  restore(bytes: Uint8Array): RestoreResult {
    if (this.state !== 'running') return { restored: false, reason: `pair ${this.state}` };
    return this.engine.restoreState(bytes);
  }

  destroy(): void {
    this.state = 'stopped';
    this.mailbox.clear();
  }
}
