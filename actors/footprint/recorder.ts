// The main thread's side of footprints: the shards' closed footprint bars into the store, and
// its pruning in market time (the newest bar's time, as the 5m bars are pruned).
import type { RootDatabase } from 'lmdb';
import type { FootprintRecord, FootprintTimeframe } from '../../core/footprint.js';
import type { PairOutbound } from '../../core/messages.js';
import { openFootprintStore, type FootprintStore } from '../../persistence/footprints.js';

export class FootprintRecorder {
  readonly store: FootprintStore;
  private marketNowMs = 0;

  constructor(root: RootDatabase, retentionDays: Readonly<Record<FootprintTimeframe, number>>) {
    this.store = openFootprintStore(root, { retentionDays });
  }

  onOutbound(items: readonly PairOutbound[]): void {
    for (const item of items) {
      if (item.kind !== 'footprint') continue;
      if (item.tsMs > this.marketNowMs) this.marketNowMs = item.tsMs;
      this.store.add(item.data as unknown as FootprintRecord);
    }
  }

  prune(): Promise<number> {
    return this.store.prune(this.marketNowMs);
  }

  close(): Promise<void> {
    return this.store.flush();
  }
}
