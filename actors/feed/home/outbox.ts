// Messages a shard sends to the venue (subscribe, unsubscribe, ping), paced by the shared
// WS message budget. Bounded: when full the oldest message is dropped and counted.
import type { SharedBudget } from '../budget.js';
import { noFeedMeters, type FeedMeters } from '../feed-meters.js';

export class Outbox {
  private readonly queue: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  dropped = 0;

  constructor(private readonly budget: SharedBudget, private readonly send: (text: string) => void,
    private readonly capacity = 4_096, private readonly meters: FeedMeters = noFeedMeters) {}

  push(message: unknown): void {
    if (this.queue.length >= this.capacity) {
      this.queue.shift();
      this.dropped++;
      this.meters.refused('ws');
    }
    this.queue.push(JSON.stringify(message));
    this.flush();
    this.meters.waiting('ws', this.queue.length);
  }

  /** Sends what the budget allows now; retries the rest when tokens are back. */
  flush(): void {
    if (this.timer) return;
    while (this.queue.length > 0) {
      const waitMs = this.budget.take('ws', 1);
      if (waitMs > 0) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.flush();
          this.meters.waiting('ws', this.queue.length);
        }, waitMs);
        return;
      }
      this.send(this.queue.shift()!);
    }
  }

  /** Forgets everything queued (the connection it was meant for is gone). */
  clear(): void {
    this.queue.length = 0;
    this.meters.waiting('ws', 0);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
