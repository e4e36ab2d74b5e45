// Plays a replay file on the data's own clock: market time starts at the file's first event and
// runs at `speed` x the service clock, or flat out at speed Infinity. The caller picks the lines
// it wants (a shard: its symbols; the main thread: universe, funding and wallet lines). Reads
// either format (JSON lines, or compact after its header) from bytes, chunk by chunk.
import type { Clock } from '../../clock.js';
import type { MarketEvent } from '../../messages.js';
import { ByteLineReader } from './byte-line-reader.js';
import { ReplayDecoder } from './replay-decoder.js';

export interface ReplayDriverOptions {
  readonly file: string;
  readonly speed: number;
  readonly clock: Clock;
  readonly tickMs?: number;
  /** Cheap pre-filter on a canonical line's type and symbol (null symbol: none on the line). */
  readonly wants: (type: string, symbol: string | null) => boolean;
  readonly emit: (event: MarketEvent) => void;
  readonly bad: (reason: string) => void;
  readonly onEnd?: () => void;
}

export interface ReplayDriver {
  start(): void;
  stop(): void;
}

// Lines handled per event-loop turn: bounds the time one turn can take.
const LINES_PER_TURN = 4_096;

export function createReplayDriver(o: ReplayDriverOptions): ReplayDriver {
  if (!(o.speed > 0)) throw new TypeError(`speed must be > 0 (was ${o.speed})`);
  let reader: ByteLineReader | null = null;
  let decoder = new ReplayDecoder();
  let tooLongReported = 0;
  let pending: MarketEvent | null = null;
  let originMs = NaN;
  let wallStartMs = 0;
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;

  const nextWanted = (): MarketEvent | null => {
    const r = reader!;
    while (r.next()) {
      // Every line sets the data clock's origin, wanted or not, so all threads agree on it.
      const originSet = !Number.isNaN(originMs);
      const event = decoder.decode(r.buf, r.start, r.end, originSet ? o.wants : null);
      if (r.tooLong !== tooLongReported) reportTooLong(r.tooLong);
      if (event === null) continue;
      if (typeof event === 'string') {
        o.bad(event);
        continue;
      }
      if (!originSet) originMs = event.tsMs;
      // A canonical or compact line was filtered by the decoder; check the others here.
      if (decoder.filtered || o.wants(event.type, 'symbol' in event ? event.symbol : null)) {
        return event;
      }
    }
    if (r.tooLong !== tooLongReported) reportTooLong(r.tooLong);
    return null;
  };
  const reportTooLong = (count: number) => {
    for (; tooLongReported < count; tooLongReported++) o.bad('line: too long, skipped');
  };
  const finish = () => {
    stop();
    o.onEnd?.();
  };
  const turn = () => {
    if (!reader) return;
    // The first read fixes the origin of the data clock, so read before computing "now".
    pending ??= nextWanted();
    if (!pending) return finish();
    const dataNowMs = Number.isFinite(o.speed)
      ? originMs + (o.clock.nowMs() - wallStartMs) * o.speed : Infinity;
    for (let i = 0; i < LINES_PER_TURN; i++) {
      pending ??= nextWanted();
      if (!pending) return finish();
      if (pending.tsMs > dataNowMs) return;
      const event = pending;
      pending = null;
      o.emit(event);
      if (!reader) return;
    }
  };
  const stop = () => {
    if (timer) clearInterval(timer);
    if (immediate) clearImmediate(immediate);
    timer = null;
    immediate = null;
    reader?.close();
    reader = null;
  };
  return {
    start() {
      if (reader) throw new Error('replay already started');
      reader = new ByteLineReader(o.file);
      decoder = new ReplayDecoder();
      wallStartMs = o.clock.nowMs();
      if (Number.isFinite(o.speed)) {
        timer = setInterval(turn, o.tickMs ?? 20);
        return turn();
      }
      const loop = () => {
        immediate = null;
        turn();
        if (reader) immediate = setImmediate(loop);
      };
      immediate = setImmediate(loop);
    },
    stop,
  };
}
