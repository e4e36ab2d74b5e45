// The ingest's resend of every view after Redis came back (publisher.ts), run in slices of
// event-loop turns (actors/runtime/sliced.ts): one run at a time, a newer one (Redis went and
// came back again) replacing an older, and the fronts' asks for the hash held until it is done.
import { performance } from 'node:perf_hooks';
import type { Logger } from '../core/logger.js';
import { runSliced } from '../actors/runtime/sliced.js';

/** Asks held during a run at most (a front asks again after its ask timeout, ~1 s). */
const heldAsksMax = 1_000;

export interface ResendDone {
  /** Steps (views) the run made. */
  readonly steps: number;
  /** Wall time from start to end, over every turn. */
  readonly ms: number;
}

export class ResendRun {
  private generation = 0;
  private held: Buffer[] = [];
  running = false;

  constructor(private readonly sliceMs: number, private readonly logger: Logger) {}

  /** An ask heard during a run: answered when it ends (the oldest goes past the bound). */
  hold(id: Buffer): void {
    if (this.held.length >= heldAsksMax) this.held.shift();
    this.held.push(id);
  }

  /** Runs `steps` in slices; `done` gets the asks held meanwhile. Replaces a run in progress
   *  (which stops at its next step, and whose held asks pass to this one). */
  run(steps: Iterator<unknown>, done: (heldAsks: Buffer[], figures: ResendDone) => void): void {
    const generation = ++this.generation;
    this.running = true;
    const startMs = performance.now();
    let made = 0;
    const guarded = function* (this: ResendRun): Generator<unknown, void, undefined> {
      for (let step = steps.next(); !step.done; step = steps.next()) {
        made++;
        yield step.value;
        if (generation !== this.generation) return;
      }
    }.call(this);
    runSliced(guarded, this.sliceMs).catch((error: Error) => {
      this.logger.error('resending the snapshots failed', { error: error.message,
        stack: error.stack });
    }).finally(() => {
      if (generation !== this.generation) return;
      this.running = false;
      const held = this.held;
      this.held = [];
      done(held, { steps: made, ms: Math.round(performance.now() - startMs) });
    });
  }

  /** Stops the run in progress at its next step; its held asks go unanswered. */
  cancel(): void {
    this.generation++;
    this.running = false;
    this.held = [];
  }
}
