// The store of serialized views the front serves: bytes plus the validators computed once per put.
import { createHash } from 'node:crypto';
import { httpBounds } from './bounds.js';
import { bytesOf } from './bytes.js';

export interface ViewMeta {
  /** Increases on every publish of the view; variants are cached per version. */
  version: number;
  /** When the producer last folded data into the view (epoch ms). */
  updatedAtMs: number;
  /** How often the producer refreshes it: X-Producer-Cadence-Ms and Cache-Control. */
  cadenceMs: number;
  /** The view as a value, when the producer has it: saves a parse for CSV and cvd variants. */
  data?: unknown;
}

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
}

/** Strong ETag of some bytes: SHA-1 in base64url, quoted (collisions need intent, not chance). */
export function strongEtag(body: Buffer): string {
  return '"' + createHash('sha1').update(bytesOf(body)).digest('base64url') + '"';
}

export class SnapshotStore {
  private readonly entries = new Map<string, ViewEntry>();

  /** Stores a view. The bytes are wrapped, not copied: a published view is never mutated. */
  put(name: string, body: Uint8Array | Buffer, meta: ViewMeta): void {
    if (typeof name !== 'string' || name.length === 0) throw new TypeError('view name is empty');
    if (!Number.isFinite(meta.updatedAtMs) || !Number.isInteger(meta.cadenceMs)) {
      throw new TypeError(`view ${name}: updatedAtMs and cadenceMs must be finite numbers`);
    }
    if (!this.entries.has(name) && this.entries.size >= httpBounds.snapshotViewsMax) {
      // A producer bug, not load: the listed universe is bounded well below this.
      throw new RangeError(`snapshot store full (${httpBounds.snapshotViewsMax} views)`);
    }
    const buffer = Buffer.isBuffer(body)
      ? body
      : Buffer.from((body as Uint8Array).buffer, body.byteOffset, body.byteLength);
    this.entries.set(name, {
      version: meta.version,
      updatedAtMs: meta.updatedAtMs,
      cadenceMs: meta.cadenceMs,
      data: meta.data,
      body: buffer,
      etag: strongEtag(buffer),
      lastModified: new Date(meta.updatedAtMs).toUTCString(),
      cacheControl: `max-age=${Math.floor(meta.cadenceMs / 1000)}`,
      cadenceHeader: String(meta.cadenceMs),
    });
  }

  get(name: string): ViewEntry | undefined {
    return this.entries.get(name);
  }

  delete(name: string): void {
    this.entries.delete(name);
  }

  get size(): number {
    return this.entries.size;
  }
}
