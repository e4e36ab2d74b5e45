// The views whose latest frame the Redis hash does not hold yet (docs/scale-out.md, "How
// snapshots travel"). The hash is read only by a front that starts or reconnects, and such a
// front asks for it to be written first, so ingest writes it every few hundred ms and on an ask,
// each view's last word once, not every frame of every view as it is published.
import { redisNames } from './redis-link.js';
import { encodeFrame, type PutHeader } from './frames.js';

/** A view that went out as a patch: the hash gets it whole (a front that loads the hash holds
 *  no keyframe), framed only when the hash is written. */
export interface WholePut {
  readonly header: PutHeader;
  readonly body: Buffer;
}

/** The HSET and HDEL that bring the hash up to date (each null when it has nothing to do). */
export interface HashWrites {
  readonly sets: (string | Buffer)[] | null;
  readonly removes: string[] | null;
}

export class DirtyViews {
  /** View name -> its latest frame (a slice of the published message: no copy; or the view
   *  to frame whole, when a patch went out), or null for a deletion. A slice holds its message
   *  (at most batchBytesMax) until the next write. */
  private readonly views = new Map<string, Buffer | WholePut | null>();

  get size(): number {
    return this.views.size;
  }

  /** A view's newest frame, or its deletion: replaces whatever was waiting for it. */
  note(name: string, frame: Buffer | WholePut | null): void {
    this.views.set(name, frame);
  }

  /** The writes for every waiting view, and forgets them. */
  take(): HashWrites {
    let sets: (string | Buffer)[] | null = null;
    let removes: string[] | null = null;
    for (const [name, frame] of this.views) {
      if (frame === null) (removes ??= [redisNames.snapshots]).push(name);
      else {
        (sets ??= [redisNames.snapshots]).push(name, Buffer.isBuffer(frame) ? frame
          : encodeFrame({ kind: 'put', ...frame.header, body: frame.body }));
      }
    }
    this.views.clear();
    return { sets, removes };
  }
}
