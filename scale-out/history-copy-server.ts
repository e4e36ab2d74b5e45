// Ingest's side of the bulk history copy (docs/scale-out.md, "History on the fronts"): answers
// each front's ask for a chunk by reading it from ingest's history store, writing it under the
// ask's short-lived key and publishing that key. Ingest keeps no state per copy: the ask carries
// the range and the cursor, and a front asks for the next chunk only once it has applied the
// last, so Redis holds at most one chunk per copying front (and an unread one expires).
import type { Logger } from '../core/logger.js';
import type { HistoryStore } from '../persistence/history.js';
import { redisNames, type RedisLink } from './redis-link.js';
import { storeEncoder } from '../persistence/table.js';
import { parseAsk, readCopyChunk, type CopyAsk } from './history-copy-chunk.js';

/** An unread chunk (its front gone, or asking again after a timeout) leaves Redis after this. */
export const copyChunkTtlMs = 60_000;

/** Asks waiting for their turn; past this the oldest goes (its front asks again). */
const asksWaitingMax = 64;

/** Starts answering, one ask a turn of ingest's event loop; returns the stop. */
export function serveHistoryCopies(link: RedisLink, store: HistoryStore, logger: Logger):
  () => void {
  const packr = storeEncoder();
  let failures = 0;
  const waiting: CopyAsk[] = [];
  let scheduled = false;

  const answer = (ask: CopyAsk) => {
    let bytes: Buffer;
    try {
      bytes = packr.pack(readCopyChunk(store, ask));
    } catch (error) {
      logger.error('reading a history copy chunk failed', { error: (error as Error).message });
      return;
    }
    const { command } = link;
    command.set(ask.key, bytes, 'PX', copyChunkTtlMs)
      .then(() => command.publish(redisNames.historyCopyReady, ask.key))
      .catch((error: Error) => {
        // The front asks again after its timeout.
        if (failures++ === 0) {
          logger.warn('answering a history copy failed', { error: error.message });
        }
      });
  };

  // A chunk is a few ms of this thread: fronts copying at once take turns with the feeds and
  // the cadence, rather than one chunk each in a single turn.
  const next = () => {
    const ask = waiting.shift();
    if (ask !== undefined) answer(ask);
    scheduled = waiting.length > 0;
    if (scheduled) setImmediate(next);
  };

  return link.listen(redisNames.historyCopyAsk, (message) => {
    const ask = parseAsk(message.toString('utf8'));
    if (ask === null) return;
    if (waiting.length >= asksWaitingMax) waiting.shift();
    waiting.push(ask);
    if (!scheduled) {
      scheduled = true;
      setImmediate(next);
    }
  });
}
