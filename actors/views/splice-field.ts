// Closing a serialized object with one more member, without parsing it: the shard serializes a
// pair's deep view without its smart-money split, which comes from the main thread's wallets,
// and closes it with the split in the worker: the one place a deep view is spliced.
import type { PairViews } from '../../core/messages.js';
import { strongEtag } from '../../core/etag.js';

const encoder = new TextEncoder();

/**
 * Appends `"name":json` as the last member of a serialized object. The result owns its whole
 * buffer, so a shard can move it to the main thread (actors/shard/protocol.ts).
 */
export function spliceField(objectBytes: Uint8Array, name: string, json: string): Uint8Array {
  const tail = encoder.encode(`,${JSON.stringify(name)}:${json}}`);
  const out = new Uint8Array(objectBytes.length - 1 + tail.length);
  out.set(objectBytes.subarray(0, objectBytes.length - 1), 0);
  out.set(tail, objectBytes.length - 1);
  return out;
}

/** A pair's views with the deep view closed by its `smartMoney` JSON, under a new ETag. */
export function withSmartMoney(views: PairViews, smartMoneyJson: string): PairViews {
  const deep = views.views['deep-view'];
  if (deep === undefined) return views;
  const spliced = spliceField(deep, 'smartMoney', smartMoneyJson);
  return { ...views, views: { ...views.views, 'deep-view': spliced },
    etags: { ...views.etags, 'deep-view': strongEtag(spliced) } };
}
