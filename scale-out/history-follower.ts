// A front's side of history on scale-out (docs/scale-out.md, "History"): reads the closed
// 1-minute points ingest appends to the Redis stream and records them into the front's own
// history store (same rollups and retention as ingest), remembering its place in the stream so
// a restarted front resumes where it stopped; and mirrors the stored signals from the Redis hash
// into memory. The history and track-record endpoints then answer from local data. What the
// stream no longer holds when the front (re)starts reading it is copied from ingest
// (history-copy.ts).
import type { Redis } from 'ioredis';
import type { RootDatabase } from 'lmdb';
import type { Clock } from '../core/clock.js';
import type { HistoryPoint } from '../core/history-point.js';
import type { Logger } from '../core/logger.js';
import type { ServiceConfig } from '../core/config.js';
import { HistoryRecorder } from '../actors/runtime/history-recorder.js';
import { endSlice, runSliced } from '../actors/runtime/sliced.js';
import type { EntrySignal } from '../actors/signals/types.js';
import type { SignalSource } from '../http/handlers/signal-history.js';
import { redisNames, type RedisLink } from './redis-link.js';
import type { SignalRecord } from '../persistence/signals.js';
import { openTable, storeEncoder } from '../persistence/table.js';
import { copyToEndMs, HistoryCopier, type CopyOptions } from './history-copy.js';

/** Stream entries read per call, and how long one read waits for new entries. */
const readCount = 200;
const readBlockMs = 2_000;
const retryMs = 500;
/** Main-thread time the entries of one read take per turn before the front's other work. */
const applySliceMs = 2;
/** Background trim of the front's own store, as on ingest. */
const pruneEveryMs = 600_000;

export interface HistoryFollower {
  /** What the history and signals handlers read. */
  readonly source: SignalSource;
  /** Stream entries applied since start (tests wait on it). */
  applied(): number;
  /** What history this front still lacks (a copy from ingest under way), for /readyz. */
  missing(): string | null;
  stop(): Promise<void>;
}

/** Stream ids ("ms-seq") in order. */
export function streamIdBefore(a: string, b: string): boolean {
  const [aMs = 0, aSeq = 0] = a.split('-').map(Number);
  const [bMs = 0, bSeq = 0] = b.split('-').map(Number);
  return aMs < bMs || (aMs === bMs && aSeq < bSeq);
}

/** The store's environments: `bulk` holds the history tables, `root` the follower's place. */
export interface FollowerStore {
  readonly root: RootDatabase;
  readonly bulk: RootDatabase;
}

export function startHistoryFollower(config: ServiceConfig, store: FollowerStore,
  link: RedisLink, clock: Clock, logger: Logger, copyOptions?: CopyOptions): HistoryFollower {
  const { root } = store;
  const recorder = new HistoryRecorder(store.bulk, { minuteRetentionDays: config.historyMinuteDays,
    hourRetentionDays: config.historyHourDays }, clock, logger);
  const packr = storeEncoder();
  const position = openTable<string, string>(root, 'history-follow');
  // Blocking reads get their own connection, with no command timeout (a read waits up to
  // readBlockMs for entries).
  const reader: Redis = link.command.duplicate({ commandTimeout: undefined,
    connectionName: 'orderflow-history' });
  reader.on('error', () => {}); // the link reports Redis being away
  let lastId = position.get('stream') ?? '0';
  let applied = 0;
  let stopped = false;
  let badEntries = 0;
  const copier = new HistoryCopier(recorder, openTable(root, 'history-copy'), link, logger,
    copyOptions);

  const pointsOf = (fields: Buffer[]): HistoryPoint[] => {
    const at = fields.findIndex((f, i) => i % 2 === 0 && f.toString() === 'p');
    return packr.unpack(fields[at + 1]!) as HistoryPoint[];
  };

  // What the stream no longer holds, from the front's newest minutes (a new front: from the
  // start), comes from ingest: through everything ingest holds, not only to the first entry's
  // minutes. Entries are not in market-time order (a warm-up's past is appended in pulled
  // chunks of a few pairs each, after live minutes; shards drift), so trimmed entries may hold
  // minutes newer than the first one left. The overlap with the stream is written twice, the
  // same points into the same slots.
  // Each pair from its own newest minute held, not from the newest of all: pairs close their
  // minutes at their own events, so a trimmed entry may hold one pair's minute older than
  // another's newest (a front that took the newest from all lost such minutes for good, and
  // answered ingest's ETag with other bytes). A pair the front holds nothing of: from the start.
  const copyFromHere = () => {
    const { store } = recorder;
    const startsMs: Record<string, number> = {};
    if (lastId !== '0') {
      for (const symbol of store.symbols()) {
        const endMs = store.updatedAtMs(symbol);
        if (endMs !== null) startsMs[symbol] = endMs;
      }
    }
    copier.want({ fromMs: 0, toMs: copyToEndMs, startsMs });
  };
  // An empty stream after the front had a place in it: Redis lost it (restarted without its
  // data), and what it held past our place went with it; the gap ends at the first entry to come.
  let streamLost = false;

  // The stream's first entry, taken just before each read: when it is past our place, the
  // stream no longer holds what came between: a new front, one back after more than the
  // backlog, or one that stayed connected but read slower than ingest trims (stopped, starved).
  // At a (re)connection an empty stream or a new front's place say so too.
  const checkGap = (first: [Buffer, Buffer[]] | undefined, reconnected: boolean) => {
    if (first === undefined) {
      if (!reconnected) return;
      if (lastId === '0') copyFromHere();
      else streamLost = true;
    } else if (lastId === '0' ? reconnected : streamIdBefore(lastId, first[0].toString())) {
      copyFromHere();
    }
  };

  const apply = (id: string, fields: Buffer[]) => {
    try {
      const points = pointsOf(fields);
      recorder.onHistory({ type: 'shardHistory', shardId: -1, generation: 0, points });
    } catch (error) {
      if (badEntries++ === 0) {
        logger.warn('ignoring a malformed history entry', { id,
          error: (error as Error).message });
      }
    }
    lastId = id;
    applied += 1;
  };

  // One entry a slice at most (its store write runs in a microtask the slice's clock does not
  // see): a front catching up a backlog (the warm-up's week, many entries a read) would hold
  // its event loop for the whole read, and the snapshot frames would wait behind it.
  function* applyEach(answer: [Buffer, [Buffer, Buffer[]][]][]): Generator<unknown> {
    for (const [, entries] of answer) {
      for (const [id, fields] of entries) {
        apply(id.toString(), fields);
        yield endSlice;
      }
    }
  }

  const follow = async () => {
    let checked = false;
    while (!stopped) {
      try {
        // One round trip: the head is read right before the entries, on the same connection.
        const [[first], answer] = await Promise.all([
          reader.xrangeBuffer(redisNames.history, '-', '+', 'COUNT', 1),
          reader.xreadBuffer('COUNT', readCount, 'BLOCK', readBlockMs,
            'STREAMS', redisNames.history, lastId),
        ]);
        checkGap(first, !checked);
        checked = true;
        if (answer === null) continue;
        if (streamLost && answer[0]?.[1][0] !== undefined) copyFromHere();
        streamLost = false;
        await runSliced(applyEach(answer), applySliceMs);
        await position.put('stream', lastId);
      } catch {
        // Redis away: as long as the backlog, maybe; looked at again before reading on.
        checked = false;
        if (!stopped) await new Promise((r) => setTimeout(r, retryMs));
      }
    }
  };
  copier.start();
  const following = follow();
  const pruneTimer = setInterval(() => {
    recorder.prune().catch((error: Error) =>
      logger.error('history trimming failed', { error: error.message }));
  }, pruneEveryMs);
  pruneTimer.unref();

  const signals = new SignalMirror(link, logger);
  signals.start();
  return {
    source: { store: recorder.store, signals, clock, revision: () => copier.revision() },
    applied: () => applied,
    missing: () => copier.status(),
    async stop() {
      stopped = true;
      await copier.stop();
      clearInterval(pruneTimer);
      signals.stop();
      reader.disconnect();
      await following;
      await recorder.close();
    },
  };
}

/** The stored signals as ingest mirrors them into Redis, held in memory. */
class SignalMirror {
  private records = new Map<string, SignalRecord<EntrySignal>>();
  private readonly packr = storeEncoder();
  private unlisten: (() => void) | null = null;

  constructor(private readonly link: RedisLink, private readonly logger: Logger) {}

  start(): void {
    this.unlisten = this.link.listen(redisNames.signalsChannel,
      (message) => this.changed(message.toString('utf8')));
    this.link.onReady(() => void this.loadAll());
  }

  stop(): void {
    this.unlisten?.();
    this.unlisten = null;
  }

  *list(): Iterable<SignalRecord<EntrySignal>> {
    yield* this.records.values();
  }

  private changed(message: string): void {
    let ids: unknown;
    try {
      ids = JSON.parse(message);
    } catch {
      return;
    }
    if (ids === '*') {
      void this.loadAll();
      return;
    }
    if (!Array.isArray(ids) || ids.length === 0) return;
    const names = ids.map(String);
    this.link.command.hmgetBuffer(redisNames.signals, ...names).then((values) => {
      names.forEach((id, i) => {
        const bytes = values[i];
        if (bytes === null || bytes === undefined) this.records.delete(id);
        else this.records.set(id, this.packr.unpack(bytes) as SignalRecord<EntrySignal>);
      });
    }).catch(() => {
      // Redis away: the load on its return brings every record.
    });
  }

  private async loadAll(): Promise<void> {
    try {
      const all = await this.link.command.hgetallBuffer(redisNames.signals);
      const next = new Map<string, SignalRecord<EntrySignal>>();
      // Unpacked in slices: a reconnect's load of 180 days of records would hold the loop.
      await runSliced(function* (packr) {
        for (const [id, bytes] of Object.entries(all)) {
          next.set(id, packr.unpack(bytes) as SignalRecord<EntrySignal>);
          yield;
        }
      }(this.packr), applySliceMs);
      this.records = next;
    } catch (error) {
      this.logger.warn('loading the signals from redis failed; retrying',
        { error: (error as Error).message });
      setTimeout(() => { if (this.link.ready()) void this.loadAll(); }, retryMs).unref();
    }
  }
}
