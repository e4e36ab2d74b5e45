// The shard's one way out for data: the hand-over port (protocol.ts). The port arrives just
// after the worker starts; what the shard sends before it waits here, in order, and leaves first
// once it is in, so nothing takes comedy's bus and nothing overtakes what it follows.
import type { MessagePort } from 'node:worker_threads';
import type { Logger } from '../../core/logger.js';
import { postFrame, type ShardToMain } from './protocol.js';

/** Messages kept before the port arrives; beyond it the oldest are dropped and counted. */
export const outboxBeforePortMax = 1_000;

interface Waiting {
  readonly message: ShardToMain;
  readonly transfer: readonly ArrayBuffer[];
}

export class ShardOutbox {
  private port: MessagePort | null = null;
  private readonly waiting: Waiting[] = [];
  /** Messages dropped while waiting for the port (the bound above). */
  dropped = 0;

  constructor(private readonly log: Logger) {}

  /** The port is in: what waited leaves now, in order. */
  attach(port: MessagePort): void {
    this.port = port;
    for (const next of this.waiting.splice(0)) postFrame(port, next.message, next.transfer);
  }

  /** A port is attached (a large past is held for the main thread to pull only then). */
  get attached(): boolean {
    return this.port !== null;
  }

  /** Posts on the port, `transfer` moved, or keeps it until the port arrives. */
  send(message: ShardToMain, transfer: readonly ArrayBuffer[] = []): void {
    if (this.port) return postFrame(this.port, message, transfer);
    if (this.waiting.length >= outboxBeforePortMax) {
      this.waiting.shift();
      if (this.dropped++ === 0) {
        this.log.error('shard messages dropped: no hand-over port yet',
          { kept: outboxBeforePortMax });
      }
    }
    this.waiting.push({ message, transfer });
  }
}
