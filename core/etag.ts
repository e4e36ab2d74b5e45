// The strong validator of a view's bytes, shared by whoever produces the bytes: the HTTP front
// for what it serializes itself, and the shard workers for the views they hand over, so the
// main thread does not hash bytes another thread already holds.
import { createHash } from 'node:crypto';

/** Strong ETag of some bytes: SHA-1 in base64url, quoted (collisions need intent, not chance). */
export function strongEtag(body: Uint8Array): string {
  return '"' + createHash('sha1').update(body).digest('base64url') + '"';
}
