// The deadline of a graceful stop (README: within 5 s): a timer on the main thread that exits
// with the cut-short code, and a watchdog process that kills this one when it has not exited
// shortly after. A thread of this process cannot be that watchdog: a task that never yields
// starves every timer of the main thread, and an exit can hang for good (lmdb's exit hook waits
// for a write in flight whose callback needs the main thread: kriszyp/lmdb-js#336, a stopped
// service seen asleep on a futex for minutes), and the exit ends every worker first.
import { spawn, type ChildProcess } from 'node:child_process';
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

/** Wall milliseconds, monotonic within the process. */
export function processNowMs(): number {
  return performance.timeOrigin + performance.now();
}

export interface StopDeadline {
  /** Exits now with `code`. Forced: lmdb's exit hook is skipped (the store may be mid-write). */
  exit(code: number, forced: boolean): never;
}

/**
 * Arms the deadline of a stop that began at `startedAtMs` (processNowMs): at the deadline the
 * main thread logs and exits with the cut-short code; a little later the watchdog kills it.
 */
export function armStopDeadline(logger: Logger, startedAtMs: number): StopDeadline {
  const deadlineAtMs = startedAtMs + stopDeadlineMs;
  const watchdog = startWatchdog(logger, deadlineAtMs + watchdogGraceMs - processNowMs());
  const exit = (code: number, forced: boolean): never => {
    // Every committed write is on disk already (lmdb is crash-safe): skipping its exit hook
    // loses nothing committed, and an exit hook that waits for a write in flight never returns.
    if (forced) process.removeAllListeners('exit');
    // After a whole stop nothing is in flight: the exit is safe and the watchdog not needed.
    else watchdog?.kill('SIGKILL');
    process.exit(code);
  };
  setTimeout(() => {
    logger.error('graceful stop overran its deadline; exiting',
      { exitCode: serveExitCodes.cutShort });
    exit(serveExitCodes.cutShort, true);
  }, Math.max(0, deadlineAtMs - processNowMs())).unref();
  return { exit };
}

/** A shell that sleeps, then SIGKILLs this process if it still runs; detached, not waited for. */
function startWatchdog(logger: Logger, afterMs: number): ChildProcess | null {
  const seconds = (Math.max(0, afterMs) / 1000).toFixed(3);
  const pid = process.pid;
  const script = `sleep ${seconds}; kill -0 ${pid} 2>/dev/null || exit 0; ` +
    `echo '{"level":"error","msg":"stop deadline passed and the process did not exit; ` +
    `killing it"}' >&2; kill -9 ${pid}`;
  try {
    const child = spawn('/bin/sh', ['-c', script],
      { detached: true, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', (error) => logger.warn('stop watchdog failed', { error: error.message }));
    child.unref();
    return child;
  } catch (error) {
    logger.warn('stop watchdog not started', { error: (error as Error).message });
    return null;
  }
}
