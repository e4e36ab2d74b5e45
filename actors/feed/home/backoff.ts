// Capped exponential backoff with jitter for reconnects; the attempt count resets on success.

export interface BackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly factor: number;
  /** Fraction of the delay drawn at random, in [0, 1]: "equal jitter" at 0.5. */
  readonly jitter: number;
}

export const backoffDefaults: BackoffOptions = { initialMs: 500, maxMs: 30_000, factor: 2,
  jitter: 0.5 };

export interface Backoff {
  next(): number;
  reset(): void;
  readonly attempts: number;
}

export function createBackoff(options: BackoffOptions = backoffDefaults,
  random: () => number = Math.random): Backoff {
  const { initialMs, maxMs, factor, jitter } = options;
  if (!(initialMs > 0)) throw new TypeError(`backoff.initialMs must be > 0 (was ${initialMs})`);
  if (!(maxMs >= initialMs)) {
    throw new TypeError(`backoff.maxMs must be >= initialMs (was ${maxMs})`);
  }
  if (!(factor >= 1 && factor <= 100)) {
    throw new TypeError(`backoff.factor must be in [1, 100] (was ${factor})`);
  }
  if (!(jitter >= 0 && jitter <= 1)) {
    throw new TypeError(`backoff.jitter must be in [0, 1] (was ${jitter})`);
  }
  let attempts = 0;
  return {
    next() {
      const capped = Math.min(maxMs, initialMs * Math.pow(factor, Math.min(attempts, 60)));
      attempts++;
      return Math.round(capped * (1 - jitter) + capped * jitter * random());
    },
    reset() {
      attempts = 0;
    },
    get attempts() {
      return attempts;
    },
  };
}
