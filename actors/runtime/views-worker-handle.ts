// The views worker's life on the main thread: started from its bundle, restarted (with the
// shards' back-off) when it dies, and stopped with the service. Messages to a worker that is
// down are dropped: `onStart` sends a restarted worker everything it needs again.
import { Worker, type MessagePort } from 'node:worker_threads';
import { limits } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import { dispatchFrame, postFrame, type ProtocolHandlers } from '../shard/protocol.js';
import { viewsWorkerBundlePath } from '../views-worker/bundle.js';
import type { MainToViews, ViewsToMain, ViewsWorkerParams } from '../views-worker/protocol.js';
import { FailureRecord } from './failure-record.js';

export interface ViewsWorkerHooks {
  /** The worker's answers, one handler per kind. */
  readonly handlers: ProtocolHandlers<ViewsToMain>;
  /** A (re)started worker is up: send it the inputs. */
  readonly onStart: () => void;
  /** The worker is gone (failed or stopped): what waited for its answers must not wait on. */
  readonly onExit: () => void;
}

export class ViewsWorkerHandle {
  private worker: Worker | null = null;
  private stopped = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly failures = new FailureRecord(limits.shardFailuresMax,
    limits.shardFailureWindowMs);
  /** Restarts after a failure so far (tests and the log). */
  restarts = 0;

  constructor(private readonly params: ViewsWorkerParams, private readonly hooks: ViewsWorkerHooks,
    private readonly log: Logger) {}

  get running(): boolean {
    return this.worker !== null;
  }

  async start(): Promise<void> {
    const path = await viewsWorkerBundlePath();
    if (this.stopped) return;
    const worker = new Worker(path, { workerData: { viewsWorker: true, params: this.params } });
    this.worker = worker;
    worker.on('message', (frame: unknown) => {
      if (this.worker === worker) dispatchFrame(this.hooks.handlers, frame, this.log, 'views');
    });
    worker.on('error', (error) => this.failed(worker, error.message));
    worker.on('exit', (code) => this.failed(worker, `exited with code ${code}`));
    this.hooks.onStart();
  }

  /** Posts to the worker (dropped while it is down). */
  post(message: MainToViews): void {
    // A Worker posts as a port does (postFrame only calls postMessage).
    if (this.worker !== null) postFrame(this.worker as unknown as MessagePort, message);
  }

  /** Test hook: ends the worker as a crash would. */
  async kill(): Promise<void> {
    await this.worker?.terminate();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer !== null) clearTimeout(this.restartTimer);
    const worker = this.worker;
    this.worker = null;
    this.hooks.onExit();
    await worker?.terminate();
  }

  private failed(worker: Worker, reason: string): void {
    if (this.worker !== worker) return; // stopped, or already handled ('error' then 'exit')
    this.worker = null;
    void worker.terminate().catch(() => {});
    this.hooks.onExit();
    const recent = this.failures.add(performance.now(), reason);
    if (this.failures.exhausted) {
      this.log.error('views worker gave up; the views keep their last bytes', { reason,
        failures: recent });
      return;
    }
    const delayMs = Math.min(limits.shardRestartDelayMsMax,
      limits.shardRestartDelayMs * 2 ** (recent - 1));
    this.log.error('views worker failed; restarting it', { reason, delayMs, failures: recent });
    this.restarts++;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.start().catch((error: Error) => this.log.error('views worker did not start',
        { error: error.message }));
    }, delayMs);
  }
}
