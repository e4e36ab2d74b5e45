// Plays a replay file on the data's own clock: market time starts at the file's first event and
// runs at `speed` x the service clock, or flat out at speed Infinity. The caller picks the lines
// it wants (a shard: its symbols; the main thread: universe, funding and wallet lines). Reads
// any format (JSON lines, compact lines after their header, binary records) from bytes, chunk
// by chunk.
import type { Clock } from '../../../core/clock.js';
import type { MarketEvent } from '../../../core/messages.js';
import type { DecodedBook, DecodedTrade } from './replay-decoder.js';
import { BOOK, OUT_OF_LINES, TRADE } from './replay-decoder.js';
import { openReplayInput, type ReplayInput } from './replay-input.js';

export interface ReplayDriverOptions {
  readonly file: string;
  readonly speed: number;
  readonly clock: Clock;
  readonly tickMs?: number;
  /** Cheap pre-filter on a canonical line's type and symbol (null symbol: none on the line). */
  readonly wants: (type: string, symbol: string | null) => boolean;
  readonly emit: (event: MarketEvent) => void;
  /**
   * Trades and books of the compact and binary formats as fields (no object per event),
   * before any filtering: the caller routes them by symbol. Without them, they come through
   * `wants` and `emit` like the rest.
   */
  readonly fields?: {
    readonly trade: (trade: DecodedTrade) => void;
    readonly book: (book: DecodedBook) => void;
  };
  readonly bad: (reason: string) => void;
  readonly onEnd?: () => void;
}

export interface ReplayDriver {
  start(): void;
  stop(): void;
}

// Per event-loop turn, at most this many events are emitted (the shard drains its mailboxes
// between turns, so this also bounds how many events wait there) and this many lines are read
// (a feed that wants few of the lines still yields the thread).
const EVENTS_PER_TURN = 4_096;
const LINES_PER_TURN = 65_536;

export function createReplayDriver(o: ReplayDriverOptions): ReplayDriver {
  if (!(o.speed > 0)) throw new TypeError(`speed must be > 0 (was ${o.speed})`);
  let source: ReplayInput | null = null;
  let pending: MarketEvent | typeof TRADE | typeof BOOK | null = null;
  let wallStartMs = 0;
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;

  /** Fills `pending`: true when there is one; false when the turn must end (maybe finished). */
  const fill = (s: ReplayInput): boolean => {
    if (pending) return true;
    const next = s.next();
    if (next === OUT_OF_LINES) return false;
    if (next === null) {
      stop();
      o.onEnd?.();
      return false;
    }
    pending = next;
    return true;
  };
  const turn = () => {
    const s = source;
    if (!s) return;
    s.linesLeft = LINES_PER_TURN;
    // The first read fixes the origin of the data clock, so read before computing "now".
    if (!fill(s)) return;
    const dataNowMs = Number.isFinite(o.speed)
      ? s.originMs + (o.clock.nowMs() - wallStartMs) * o.speed : Infinity;
    // Runs of common compact lines go through the fused loop, the rest one by one.
    for (let eventsLeft = EVENTS_PER_TURN; eventsLeft > 0; eventsLeft--) {
      if (pending === null && o.fields) {
        eventsLeft -= s.runFast(o.fields, dataNowMs, eventsLeft);
        if (eventsLeft === 0 || !source) return;
      }
      if (!fill(s) || timeOf(s, pending!) > dataNowMs) return;
      const event = pending!;
      pending = null;
      handOut(o, s, event);
      if (!source) return;
    }
  };
  const stop = () => {
    if (timer) clearInterval(timer);
    if (immediate) clearImmediate(immediate);
    timer = null;
    immediate = null;
    source?.close();
    source = null;
  };
  return {
    start() {
      if (source) throw new Error('replay already started');
      source = openReplayInput(o.file, o.wants, o.bad, o.fields !== undefined);
      wallStartMs = o.clock.nowMs();
      if (Number.isFinite(o.speed)) {
        timer = setInterval(turn, o.tickMs ?? 20);
        return turn();
      }
      const loop = () => {
        immediate = null;
        turn();
        if (source) immediate = setImmediate(loop);
      };
      immediate = setImmediate(loop);
    },
    stop,
  };
}

/** The market time of an event from `s`. */
function timeOf(s: ReplayInput, event: MarketEvent | typeof TRADE | typeof BOOK): number {
  return event === TRADE ? s.trade.tsMs : event === BOOK ? s.book.tsMs : event.tsMs;
}

/** An event from `s` to the driver's caller: trades and books as fields, the rest whole. */
function handOut(o: ReplayDriverOptions, s: ReplayInput,
  event: MarketEvent | typeof TRADE | typeof BOOK): void {
  if (event === TRADE) o.fields!.trade(s.trade);
  else if (event === BOOK) o.fields!.book(s.book);
  else o.emit(event);
}
