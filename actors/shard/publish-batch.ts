// A shard's publish batch (views, whale prints, bars and signals, history points, states) and
// the messages it leaves as, in order. A batch whose past is held (past-queue.ts) announces it
// before its views: the main thread marks a pair published when its views arrive, and /readyz
// must not see every pair published and nothing held between the two messages.
import type { PairOutbound, PairViews, WhalePrint } from '../../core/messages.js';
import type { HistoryPoint } from '../../core/history-point.js';
import { movedPairs } from './handover.js';
import { chunked, pastChunkItems, type PastQueue } from './past-queue.js';
import {
  protocolTypes, type ShardHistory, type ShardPairStates, type ShardPastHeld, type ShardPublish,
} from './protocol.js';

export interface PublishBatch {
  readonly pairs: PairViews[];
  readonly whalePrints: WhalePrint[];
  readonly outbound: PairOutbound[];
  readonly history: HistoryPoint[];
  readonly states: { symbol: string; bytes: Uint8Array }[];
}

export function newBatch(): PublishBatch {
  return { pairs: [], whalePrints: [], outbound: [], history: [], states: [] };
}

export interface BatchSender {
  readonly shardId: number;
  readonly generation: number;
  /** The main thread pulls held past (a hand-over port is attached): batches may be held. */
  readonly attached: boolean;
  readonly past: PastQueue;
  readonly droppedEvents: () => number;
  /** The bytes that close a pair's deep view (its smart money, splice-field.ts). */
  readonly closeDeepView?: (symbol: string) => Uint8Array;
}

export interface Outgoing {
  readonly message: ShardPublish | ShardHistory | ShardPairStates | ShardPastHeld;
  readonly transfer: readonly ArrayBuffer[];
}

/** The messages `b` leaves as, in order; what is held stays in `s.past`. */
export function batchMessages(b: PublishBatch, s: BatchSender): Outgoing[] {
  const out: Outgoing[] = [];
  const hold = s.attached && s.past.holds(b.outbound.length + b.history.length);
  const announce = hold && holdPast(b, s);
  if (announce) {
    out.push({ message: { type: protocolTypes.pastHeld, shardId: s.shardId,
      generation: s.generation, left: s.past.size }, transfer: [] });
  }
  if (b.pairs.length > 0 || b.whalePrints.length > 0 || (!hold && b.outbound.length > 0)) {
    // Moved in one buffer: these bytes are not read here again once sent.
    const { pairs, transfer } = movedPairs(b.pairs, s.closeDeepView);
    out.push({ message: publishMessage(s, pairs, b.whalePrints, hold ? [] : b.outbound),
      transfer });
  }
  if (hold) {
    // Bounded: a main thread that stopped pulling gets it all, after the views, as before
    // holding.
    if (s.past.full) {
      for (let next = s.past.take(); next; next = s.past.take()) out.push(next);
    }
    return out;
  }
  // History points travel on their own message, so the view publish keeps its shape; states
  // go after what they follow.
  if (b.history.length > 0) out.push({ message: historyMessage(s, b.history), transfer: [] });
  if (b.states.length > 0) {
    out.push({ message: statesMessage(s, b.states), transfer: movedStates(b.states) });
  }
  return out;
}

/** Holds a batch's bars, signals, history points and states, in chunks; true to announce. */
function holdPast(b: PublishBatch, s: BatchSender): boolean {
  const announce = s.past.size === 0;
  for (const part of chunked(b.outbound, pastChunkItems)) {
    s.past.hold(publishMessage(s, [], [], part));
  }
  for (const part of chunked(b.history, pastChunkItems)) s.past.hold(historyMessage(s, part));
  if (b.states.length > 0) s.past.hold(statesMessage(s, b.states), movedStates(b.states));
  return announce && s.past.size > 0 && !s.past.full;
}

function publishMessage(s: BatchSender, pairs: PairViews[], whalePrints: WhalePrint[],
  outbound: readonly PairOutbound[]): ShardPublish {
  return { type: protocolTypes.publish, shardId: s.shardId, generation: s.generation, pairs,
    whalePrints, outbound, droppedEvents: s.droppedEvents() };
}

function statesMessage(s: BatchSender, states: ShardPairStates['states']): ShardPairStates {
  return { type: protocolTypes.pairStates, shardId: s.shardId, generation: s.generation,
    states };
}

function historyMessage(s: BatchSender, points: readonly HistoryPoint[]): ShardHistory {
  return { type: protocolTypes.history, shardId: s.shardId, generation: s.generation, points };
}

/** A states message's transferables: each saved state's bytes move, not copy. */
function movedStates(states: ShardPairStates['states']): ArrayBuffer[] {
  return states.map((st) => st.bytes.buffer as ArrayBuffer);
}
