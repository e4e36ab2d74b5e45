// Drives a generated or replayed feed through market time: `speed` x the service clock, or as
// fast as possible (speed Infinity) in bounded steps that yield to the event loop.
import type { Clock } from '../../core/clock.js';

export interface PacerOptions {
  readonly clock: Clock;
  /** Multiple of real time; Infinity runs flat out. */
  readonly speed: number;
  /** Market time at start, epoch ms. */
  readonly startMs: number;
  /** Wall interval between advances at a finite speed. */
  readonly tickMs?: number;
  /** Market time covered per step at speed Infinity (one step per event-loop turn). */
  readonly stepMs?: number;
  /** Market time not to pass (what the shards reached: sim-pace.ts); none: no limit. */
  readonly limitMs?: () => number;
}

export interface Pacer {
  /** Calls advance(toMs) with non-decreasing market times until stopped. */
  start(advance: (toMs: number) => void): void;
  stop(): void;
  /** The market time reached so far. */
  marketMs(): number;
}

export function createPacer(options: PacerOptions): Pacer {
  if (!(options.speed > 0)) throw new TypeError(`speed must be > 0 (was ${options.speed})`);
  const tickMs = options.tickMs ?? 50;
  const stepMs = options.stepMs ?? 1_000;
  let reachedMs = options.startMs;
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;
  let running = false;
  return {
    start(advance) {
      if (running) throw new Error('pacer already started');
      running = true;
      if (Number.isFinite(options.speed)) {
        const wallStartMs = options.clock.nowMs();
        const tick = () => {
          const toMs = Math.min(options.limitMs?.() ?? Infinity,
            options.startMs + (options.clock.nowMs() - wallStartMs) * options.speed);
          if (toMs > reachedMs) reachedMs = Math.floor(toMs);
          advance(reachedMs);
        };
        tick();
        timer = setInterval(tick, tickMs);
        return;
      }
      const step = () => {
        immediate = null;
        if (!running) return;
        reachedMs = Math.max(reachedMs, Math.min(reachedMs + stepMs,
          options.limitMs?.() ?? Infinity));
        advance(reachedMs);
        if (running) immediate = setImmediate(step);
      };
      immediate = setImmediate(step);
    },
    stop() {
      running = false;
      if (timer) clearInterval(timer);
      if (immediate) clearImmediate(immediate);
      timer = null;
      immediate = null;
    },
    marketMs: () => reachedMs,
  };
}
