// Simulated time for waits measured in minutes (the venue's request budget): a clock and timers
// that move only when told, from one due timer to the next. A driver moves time while nothing
// real is under way (`idle`), so minutes of budget pass in milliseconds of wall time.
import type { Clock } from '../../core/clock.js';
import type { Timers } from '../../actors/feed/home/timers.js';

interface Timer {
  readonly atMs: number;
  readonly seq: number;
  readonly callback: () => void;
  cancelled: boolean;
}

export class SimulatedTime implements Clock, Timers {
  private currentMs: number;
  private seq = 0;
  private readonly timers: Timer[] = [];

  constructor(startMs: number) {
    this.currentMs = startMs;
  }

  nowMs(): number {
    return this.currentMs;
  }

  setTimeout(callback: () => void, delayMs: number): Timer {
    const timer = { atMs: this.currentMs + Math.max(0, delayMs), seq: this.seq++, callback,
      cancelled: false };
    this.timers.push(timer);
    return timer;
  }

  clearTimeout(handle: unknown): void {
    (handle as Timer).cancelled = true;
  }

  /** Timers still to fire. */
  pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Moves to the earliest timer and fires every timer due then; false when none is left. */
  advance(): boolean {
    const live = this.timers.filter((t) => !t.cancelled);
    if (live.length === 0) {
      this.timers.length = 0;
      return false;
    }
    live.sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
    this.currentMs = Math.max(this.currentMs, live[0].atMs);
    const due = live.filter((t) => t.atMs <= this.currentMs);
    this.timers.length = 0;
    this.timers.push(...live.filter((t) => t.atMs > this.currentMs));
    for (const timer of due) timer.callback();
    return true;
  }

  /**
   * Advances every `everyMs` of wall time while `idle()` holds (nothing real under way, e.g. no
   * request in flight); returns a stop function.
   */
  drive(idle: () => boolean, everyMs = 2): () => void {
    const interval = setInterval(() => {
      if (idle()) this.advance();
    }, everyMs);
    return () => clearInterval(interval);
  }
}
