// Answers of GET /api/v1/history kept by their ETag: a dashboard polling the same range gets
// the bytes (headers joined once) until a new minute is recorded, with no store read or
// serialization. Bounded by count and bytes; the least recently used answer goes first.
import { LRUCache } from 'lru-cache';
import type { Payload } from './respond.js';

/** Answers held; a 5,000-point JSON page is ~1 MB, a default 500-point one ~60 KB. */
export const historyAnswersMax = 2_000;
export const historyAnswerBytesMax = 64 * 1024 * 1024;

function byteLength(body: Uint8Array | string): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

export function createHistoryCache(): LRUCache<string, Payload> {
  return new LRUCache<string, Payload>({
    max: historyAnswersMax, maxSize: historyAnswerBytesMax,
    sizeCalculation: (p) => Math.max(1, byteLength(p.body)),
  });
}
