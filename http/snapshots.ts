// The store of serialized views the front serves: bytes plus the validators computed once per put,
// and families of views encoded on request from a producer's state (lazy views).
import { LRUCache } from 'lru-cache';
import { httpBounds } from './bounds.js';
import { strongEtag } from '../core/etag.js';
import { ownedBytes, packedBytes } from '../core/owned-bytes.js';
import { MovedBuffers } from './moved-buffers.js';
import type { LazyViewSource, ViewMeta } from '../core/view-meta.js';

export type { LazyView, LazyViewSource, ViewMeta } from '../core/view-meta.js';

export interface ViewEntry extends ViewMeta {
  body: Buffer;
  /** Strong validator, quoted: a hash of the body, so equal bytes give equal tags. */
  etag: string;
  /** HTTP-date of updatedAtMs. */
  lastModified: string;
  /** `max-age=<cadence in whole seconds>`, precomputed for the hot path. */
  cacheControl: string;
  /** cadenceMs as a header value. */
  cadenceHeader: string;
  /** The bytes were moved here; only the views of their message share their buffer (ViewMeta). */
  moved: boolean;
}

export { strongEtag } from '../core/etag.js';

/**
 * Built entries of lazy views kept: the most requested wallets are answered from here, the rest
 * encoded again (~1 KB each) when asked. Least recently used evicted past either bound.
 */
const lazyEntriesMax = 2_048;
const lazyBytesMax = 8 * 1024 * 1024;

/**
 * The HTTP-date of a time, kept for the last second asked: the views of one cadence share their
 * second, and a scale-out front and ingest put hundreds of views a turn, each `toUTCString` a
 * cost.
 */
let dateSecond = NaN;
let dateText = '';
function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== dateSecond) {
    dateText = new Date(ms).toUTCString();
    dateSecond = second;
  }
  return dateText;
}

/** The cadence's two header values, kept for the last cadence asked (most views share one). */
let cadenceOf = NaN;
let cadenceHeaders = { cacheControl: '', cadenceHeader: '' };
function cadenceHeadersOf(cadenceMs: number): typeof cadenceHeaders {
  if (cadenceMs !== cadenceOf) {
    cadenceHeaders = { cacheControl: `max-age=${Math.floor(cadenceMs / 1000)}`,
      cadenceHeader: String(cadenceMs) };
    cadenceOf = cadenceMs;
  }
  return cadenceHeaders;
}

/** A view's entry as the store holds it: its bytes and the validators made from its meta. */
export function entryOf(body: Uint8Array | Buffer, meta: ViewMeta): ViewEntry {
  const { cacheControl, cadenceHeader } = cadenceHeadersOf(meta.cadenceMs);
  const buffer = Buffer.isBuffer(body)
    ? body
    : Buffer.from((body as Uint8Array).buffer, body.byteOffset, body.byteLength);
  return {
    version: meta.version,
    updatedAtMs: meta.updatedAtMs,
    cadenceMs: meta.cadenceMs,
    data: meta.data,
    body: buffer,
    // A producer's own tag is of these very bytes (same function, another thread).
    etag: meta.etag ?? strongEtag(buffer),
    lastModified: httpDate(meta.updatedAtMs),
    cacheControl,
    cadenceHeader,
    moved: meta.moved === true && buffer.buffer instanceof ArrayBuffer,
  };
}

export interface SnapshotStoreOptions {
  /**
   * Release a replaced view's moved bytes: V8 counts a buffer that outlived a young-generation
   * collection as external memory of the old generation until the next full GC, so the views
   * passing through the main thread (megabytes a second) started a full GC every few seconds.
   * Detached, the count goes at once; the memory goes with the clone at the next scavenge.
   * Only where this store is their one holder: a scale-out ingest's publisher keeps the last
   * bytes of each view to patch from, so there a view's moved bytes are copied to their own
   * buffer, which does not keep the rest of their message alive.
   */
  readonly releaseMoved?: boolean;
}

export class SnapshotStore {
  private readonly entries = new Map<string, ViewEntry>();
  /** The moved buffers under the views, when this store releases them (releaseMoved). */
  private readonly moved: MovedBuffers | null;
  // Why lazy families: thousands of wallet views held as bytes with their validators would sit
  // on the main thread, rebuilt (and hashed) every refresh whether anyone asked or not.
  private readonly mounts: [prefix: string, source: LazyViewSource][] = [];
  private readonly built = new LRUCache<string, ViewEntry>({
    max: lazyEntriesMax, maxSize: lazyBytesMax,
    sizeCalculation: (entry) => Math.max(1, entry.body.byteLength),
  });

  constructor(options: SnapshotStoreOptions = {}) {
    this.moved = options.releaseMoved === true ? new MovedBuffers() : null;
  }

  /**
   * Stores a view: the one place a snapshot (name, bytes, version, updatedAtMs, cadenceMs, and
   * the ETag when its producer computed it) enters the front's store. The bytes are wrapped,
   * not copied: a published view is never mutated.
   */
  put(name: string, body: Uint8Array | Buffer, meta: ViewMeta): void {
    if (typeof name !== 'string' || name.length === 0) throw new TypeError('view name is empty');
    if (!Number.isFinite(meta.updatedAtMs) || !Number.isInteger(meta.cadenceMs)) {
      throw new TypeError(`view ${name}: updatedAtMs and cadenceMs must be finite numbers`);
    }
    if (!this.entries.has(name) && this.entries.size >= httpBounds.snapshotViewsMax) {
      // A producer bug, not load: the listed universe is bounded well below this.
      throw new RangeError(`snapshot store full (${httpBounds.snapshotViewsMax} views)`);
    }
    // Not releasing: moved bytes are copied out of their message's buffer (see releaseMoved).
    const entry = entryOf(this.moved === null && meta.moved === true ? ownedBytes(body) : body,
      meta);
    const previous = this.entries.get(name);
    this.entries.set(name, entry);
    if (this.moved === null) return;
    if (entry.moved) this.moved.hold(name, entry.body);
    // The same buffer again (the same bytes put twice): still read, by the new entry.
    if (previous?.moved && previous.body.buffer !== entry.body.buffer) {
      this.release(name, previous.body);
    }
  }

  /** `name` no longer reads `body`: its buffer goes once no view reads it (moved-buffers.ts). */
  private release(name: string, body: Buffer): void {
    const moved = this.moved!;
    moved.drop(name, body);
    for (let sparse = moved.sparse(); sparse !== undefined; sparse = moved.sparse()) {
      // Copied together: one buffer for all of them, as they came.
      const entries = sparse.names.map((other) => this.entries.get(other)!);
      const { parts } = packedBytes(entries.map((entry) => entry.body));
      sparse.names.forEach((other, i) => {
        const own = entryOf(parts[i]!, entries[i]!);
        this.entries.set(other, own);
        moved.hold(other, own.body);
      });
      moved.handOver(sparse.buffer);
    }
  }

  /**
   * Serves every name under `prefix` not put explicitly from `source`: the entry is built on
   * the first get of each version, with the same validators a put would give its bytes.
   */
  mount(prefix: string, source: LazyViewSource): void {
    if (prefix.length === 0) throw new TypeError('mount prefix is empty');
    if (this.mounts.some(([known]) => known.startsWith(prefix) || prefix.startsWith(known))) {
      throw new RangeError(`mount ${prefix} overlaps another`);
    }
    this.mounts.push([prefix, source]);
  }

  get(name: string): ViewEntry | undefined {
    return this.entries.get(name) ?? (this.mounts.length > 0 ? this.lazy(name) : undefined);
  }

  delete(name: string): void {
    const previous = this.entries.get(name);
    this.entries.delete(name);
    if (previous?.moved && this.moved !== null) this.release(name, previous.body);
  }

  /** Calls `visit` with each built view's name and meta (metrics read them at scrape time). */
  forEachView(visit: (name: string, meta: ViewMeta) => void): void {
    for (const [name, entry] of this.entries) visit(name, entry);
  }

  /** Views put explicitly (lazy families are not counted: they hold no bytes). */
  get size(): number {
    return this.entries.size;
  }

  /** Moved buffers the views read (0 where the store does not release them). */
  get movedBuffers(): number {
    return this.moved?.size ?? 0;
  }

  private lazy(name: string): ViewEntry | undefined {
    const mount = this.mounts.find(([prefix]) => name.startsWith(prefix));
    if (mount === undefined) return undefined;
    const view = mount[1].view(name.slice(mount[0].length));
    if (view === undefined) {
      this.built.delete(name);
      return undefined;
    }
    const cached = this.built.get(name);
    // Same version, same entry object: its prebuilt answer (feedPayload) is reused too.
    if (cached !== undefined && cached.version === view.version) return cached;
    const entry = entryOf(view.encode(), view);
    this.built.set(name, entry);
    return entry;
  }
}
