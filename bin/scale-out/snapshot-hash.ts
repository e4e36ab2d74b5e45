// The views whose latest frame the Redis hash does not hold yet (docs/scale-out.md, "How
// snapshots travel"). The hash is read only by a front that starts or reconnects, and such a
// front asks for it to be written first, so ingest writes it every few hundred ms and on an ask,
// each view's last word once, not every frame of every view as it is published.
import { redisNames } from '../../persistence/redis-link.js';

/**
 * The hash field of a view's keyframe (patch.ts), beside the view's own field, which holds its
 * latest frame: a patch of that keyframe, or the keyframe itself. Both are written in the same
 * HSET when the keyframe goes out, so a front that loads the hash finds each patch's base.
 */
export function keyframeField(name: string): string {
  return name + '\u0000keyframe';
}

/** Whether a hash field is a keyframe's (view names never hold a NUL). */
export function isKeyframeField(field: string): boolean {
  return field.endsWith('\u0000keyframe');
}

/** The HSET and HDEL that bring the hash up to date (each null when it has nothing to do). */
export interface HashWrites {
  readonly sets: (string | Buffer)[] | null;
  readonly removes: string[] | null;
}

export class DirtyViews {
  /** Hash field (a view's name, or its keyframe's field) -> its latest frame (a slice of the
   *  published message: no copy), or null for a deletion. A slice holds its message (at most
   *  batchBytesMax) until the next write. */
  private readonly views = new Map<string, Buffer | null>();

  get size(): number {
    return this.views.size;
  }

  /** A view's newest frame, or its deletion: replaces whatever was waiting for it. */
  note(name: string, frame: Buffer | null): void {
    this.views.set(name, frame);
  }

  /** The writes for every waiting view, and forgets them. */
  take(): HashWrites {
    let sets: (string | Buffer)[] | null = null;
    let removes: string[] | null = null;
    for (const [name, frame] of this.views) {
      if (frame === null) (removes ??= [redisNames.snapshots]).push(name);
      else (sets ??= [redisNames.snapshots]).push(name, frame);
    }
    this.views.clear();
    return { sets, removes };
  }
}
