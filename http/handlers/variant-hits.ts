// A symbol view's variant answers remembered per (query, segment), for polls that repeat one
// URL: a hit skips the parameter checks, the symbol lookup and building the cache key, and
// holds while the pair is listed, the view's entry is the one the answer was built from and
// the bar store has committed nothing since.
import type { Outcome } from '../access-types.js';
import { httpBounds } from '../bounds.js';
import { payloadOutcome } from './payloads.js';
import type { QueryParams } from '../query.js';
import type { Payload } from '../respond.js';
import type { SnapshotStore, ViewEntry } from '../snapshots.js';
import type { VariantCache } from '../variants.js';

interface Hit {
  /** `pair/<SYMBOL>`: the symbol must still be listed. */
  readonly listedName: string;
  /** `<view>/<SYMBOL>`: its entry must still be `entry`. */
  readonly viewName: string;
  readonly entry: ViewEntry;
  readonly storeVersion: number;
  /** The variant cache's key: the payload stays in that cache, under its bounds, not here. */
  readonly key: string;
}

export class VariantHits {
  // Keyed by the params object: the dispatcher's QueryMemo gives a repeated query string the
  // same one. Params made per call (MCP tools) never hit, and their entries go with them.
  private readonly hits = new WeakMap<QueryParams, Map<string, Hit>>();

  constructor(private readonly snapshots: SnapshotStore, private readonly variants: VariantCache,
    private readonly storeVersion: () => number) {}

  /** The answer remembered for this query and segment while it is current, else undefined. */
  find(params: QueryParams, segment: string): Outcome<Payload> | undefined {
    const hit = this.hits.get(params)?.get(segment);
    if (hit === undefined || this.snapshots.get(hit.listedName) === undefined ||
      this.snapshots.get(hit.viewName) !== hit.entry || this.storeVersion() !== hit.storeVersion) {
      return undefined;
    }
    const payload = this.variants.cached(hit.key);
    return payload === undefined ? undefined : payloadOutcome(payload);
  }

  /**
   * Remembers an answer just built from `entry` of `<view>/<symbol>` under `key`. Only a segment
   * that names its listed symbol as it is: an encoded or case-folded one resolves every time.
   */
  remember(params: QueryParams, segment: string, symbol: string, view: string,
    entry: ViewEntry, storeVersion: number, key: string): void {
    if (symbol !== segment) return;
    let bySegment = this.hits.get(params);
    if (bySegment === undefined) this.hits.set(params, bySegment = new Map());
    else if (bySegment.size >= httpBounds.pathMemoMax) bySegment.clear();
    bySegment.set(segment, { listedName: 'pair/' + segment, viewName: `${view}/${segment}`,
      entry, storeVersion, key });
  }
}
