// The deadline of a graceful stop (README: within 5 s): a timer on the main thread that exits
// with the cut-short code, and a watchdog thread that kills the process when the main thread is
// too busy to run that timer (a task that never yields starves every timer of its thread).
import { Worker } from 'node:worker_threads';
import type { Logger } from '../core/logger.js';

/** Exit codes of `orderflow serve` (docs/operations.md, "Stopping"). */
export const serveExitCodes = Object.freeze({
  /** Everything acknowledged and every pair's state saved. */
  clean: 0,
  /** Start-up or the stop itself failed. */
  failed: 1,
  /** Cut short (deadline, a shard that did not finish, a second signal): see the docs. */
  cutShort: 3,
});

/** From the signal to the exit: the documented 5 s, less what the exit itself takes. */
export const stopDeadlineMs = 4_500;
/** The shards' share of it: the rest writes what they sent and closes the store. */
export const shardStopShareMs = 3_000;
/** The watchdog kills the process this long after the deadline if it is still running. */
const watchdogGraceMs = 300;

// Plain CommonJS evaluated in its own thread: it sleeps (no CPU) until the kill time, which it
// reads as wall time since both threads share it, not as a delay from its own (late) start.
const watchdogSource = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const waitMs = Math.max(0, workerData.killAtMs - (performance.timeOrigin + performance.now()));
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, waitMs);
writeSync(2, JSON.stringify({ level: 'error',
  msg: 'stop deadline passed and the main thread did not exit; killing the process' }) + '\\n');
process.kill(process.pid, 'SIGKILL');
`;

/** Wall milliseconds that every thread of the process reads alike. */
export function processNowMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Arms the deadline of a stop that began at `startedAtMs` (processNowMs): at the deadline the
 * main thread logs and exits with the cut-short code; a little later the watchdog kills it.
 */
export function armStopDeadline(logger: Logger, startedAtMs: number): void {
  const deadlineAtMs = startedAtMs + stopDeadlineMs;
  setTimeout(() => {
    logger.error('graceful stop overran its deadline; exiting',
      { exitCode: serveExitCodes.cutShort });
    process.exit(serveExitCodes.cutShort);
  }, Math.max(0, deadlineAtMs - processNowMs())).unref();
  try {
    const watchdog = new Worker(watchdogSource,
      { eval: true, workerData: { killAtMs: deadlineAtMs + watchdogGraceMs } });
    watchdog.unref();
    watchdog.on('error', (error) => logger.warn('stop watchdog failed', { error: error.message }));
  } catch (error) {
    logger.warn('stop watchdog not started', { error: (error as Error).message });
  }
}
