// What a producer of served views (a shard, the positioning views) tells the front about a view:
// its version, freshness and cadence, and the families of views built only when asked. Vocabulary
// shared by actors/ (which produce views) and http/ (which serves them), so it sits below both.

export interface ViewMeta {
  /** Increases on every publish of the view; variants are cached per version. */
  version: number;
  /** When the producer last folded data into the view (epoch ms). */
  updatedAtMs: number;
  /** How often the producer refreshes it: X-Producer-Cadence-Ms and Cache-Control. */
  cadenceMs: number;
  /** The view as a value, when the producer has it: saves a parse for CSV and cvd variants. */
  data?: unknown;
  /**
   * The bytes' strong ETag (core/etag.ts), when the producer computed it where it made them (a
   * shard worker): the front then does not hash them again on its own thread.
   */
  etag?: string;
  /**
   * The bytes were moved to this thread (a transfer from the worker that made them): nothing
   * here holds their buffer but the views that came in the same message, so a store may release
   * it once it replaced them all (http/snapshots.ts).
   */
  moved?: boolean;
}

/** One view of a lazy family: its meta now, and its bytes made only when a request needs them. */
export interface LazyView extends ViewMeta {
  /** The view's bytes for this version (called on a cache miss, so at most once per version
   *  while the entry stays cached). */
  encode(): Uint8Array | Buffer;
}

/** A producer's family of views, by the name's part after the mount's prefix. */
export interface LazyViewSource {
  view(key: string): LazyView | undefined;
}

/** Told of every publish of a family's view (its key and view), and of a view dropped (none). */
export type LazyViewListener = (key: string, view: LazyView | undefined) => void;

/**
 * A lazy family whose producer tells when a view changes and which views it holds: a scale-out
 * ingest forwards each change to the fronts, which hold no producer of their own
 * (scale-out/publisher.ts). One box never asks.
 */
export interface WatchedViewSource extends LazyViewSource {
  keys(): Iterable<string>;
  watch(listener: LazyViewListener): void;
}

export function isWatchedSource(source: LazyViewSource): source is WatchedViewSource {
  return typeof (source as Partial<WatchedViewSource>).watch === 'function' &&
    typeof (source as Partial<WatchedViewSource>).keys === 'function';
}
