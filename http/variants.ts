// Serialized variants of snapshot views (cvd slices, CSV exports), built once per view version
// and parameters, so repeated polls cost a cache lookup.
import { LRUCache } from 'lru-cache';
import { httpBounds } from './bounds.js';
import type { Payload } from './respond.js';
import type { ViewEntry } from './snapshots.js';

function byteLength(body: Uint8Array | string): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

export class VariantCache {
  private readonly variants = new LRUCache<string, Payload>({
    max: httpBounds.variantsMax,
    maxSize: httpBounds.variantBytesMax,
    sizeCalculation: (p) => Math.max(1, byteLength(p.body)),
  });
  private readonly parsed = new LRUCache<string, { readonly value: unknown }>({
    max: httpBounds.parsedViewsMax,
  });

  /** The view as a value: the producer's `data` if given, else its body parsed once. */
  dataOf(name: string, entry: ViewEntry): unknown {
    if (entry.data !== undefined) return entry.data;
    const key = `${name}\u0000${entry.version}\u0000${entry.etag}`;
    let hit = this.parsed.get(key);
    if (hit === undefined) {
      hit = { value: JSON.parse(entry.body.toString('utf8')) };
      this.parsed.set(key, hit);
    }
    return hit.value;
  }

  /** The cache key of (view, version, params): what `cached` takes. */
  keyOf(name: string, entry: ViewEntry, paramsKey: string): string {
    return `${name}\u0000${entry.version}\u0000${entry.etag}\u0000${paramsKey}`;
  }

  /** The variant under a key from `keyOf` if it is still held (it counts as a use). */
  cached(key: string): Payload | undefined {
    return this.variants.get(key);
  }

  /** The cached variant of (view, version, params), built by `build` on a miss. */
  variant(name: string, entry: ViewEntry, paramsKey: string, build: (data: unknown) => Payload):
    Payload {
    return this.variantAt(this.keyOf(name, entry, paramsKey), name, entry, build);
  }

  /** `variant` with its key from `keyOf` already made. */
  variantAt(key: string, name: string, entry: ViewEntry, build: (data: unknown) => Payload):
    Payload {
    let payload = this.variants.get(key);
    if (payload === undefined) {
      payload = build(this.dataOf(name, entry));
      this.variants.set(key, payload);
    }
    return payload;
  }

  get size(): number {
    return this.variants.size;
  }
}

/** A variant's strong ETag: the view's tag qualified by the parameters that shaped it. */
export function variantEtag(entry: ViewEntry, paramsKey: string): string {
  return entry.etag.slice(0, -1) + '.' + paramsKey + '"';
}
