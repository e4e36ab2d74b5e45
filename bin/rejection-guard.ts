// The process's guard against a promise rejection that no code handled (docs/operations.md,
// "Redis restarts"). Node's default ends the process: one library promise nobody held (a
// re-subscribe that timed out while Redis came back) took a whole ingest down, and the fronts
// with it. Such a rejection is a bug, so it is said loudly (an error line with its stack, and
// orderflow_unhandled_rejections_total), while the process keeps serving what it can.
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { processFaults } from '../core/process-faults.js';

/** Lines logged per minute at most: a storm of the same fault is counted, not printed. */
const linesPerMinuteMax = 10;

function describe(reason: unknown): Record<string, unknown> {
  if (reason instanceof Error) return { error: reason.message, stack: reason.stack };
  return { error: String(reason) };
}

/** Installs the guard; returns its removal (tests). */
export function guardUnhandledRejections(logger: Logger, clock: Clock): () => void {
  let minuteStartMs = -Infinity;
  let linesThisMinute = 0;
  let suppressed = 0;
  const onRejection = (reason: unknown) => {
    processFaults.unhandledRejections++;
    const nowMs = clock.nowMs();
    if (nowMs - minuteStartMs >= 60_000) {
      minuteStartMs = nowMs;
      linesThisMinute = 0;
    }
    if (linesThisMinute >= linesPerMinuteMax) {
      suppressed++;
      return;
    }
    linesThisMinute++;
    logger.error('unhandled promise rejection (a bug); the process keeps serving', {
      ...describe(reason), total: processFaults.unhandledRejections,
      ...(suppressed > 0 ? { notLoggedBefore: suppressed } : {}),
    });
    suppressed = 0;
  };
  process.on('unhandledRejection', onRejection);
  return () => process.off('unhandledRejection', onRejection);
}
