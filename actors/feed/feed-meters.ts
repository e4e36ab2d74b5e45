// What a feed counts for the service's metrics as it happens: venue frames per channel, the lag
// from venue time to arrival, and requests that wait for or are refused the venue's budget.
// Plain calls on numbers the shard owns (actors/shard/shard-meters.ts): nothing is allocated
// per frame or per trade.

/** The venue's WebSocket channels counted apart; any other frame counts as 'other'. */
export const feedChannels = ['trades', 'l2Book', 'activeAssetCtx', 'other'] as const;
export type FeedChannel = (typeof feedChannels)[number];

/** The venue budget's buckets (budget.ts): REST weight, WS messages. */
export type BudgetBucket = 'rest' | 'ws';

export interface FeedMeters {
  /** One frame of the channel at index `channel` of feedChannels. */
  frame(channel: number): void;
  /** A trade's or book's age on arrival: the service's clock minus the venue's time, seconds. */
  lag(seconds: number): void;
  /** Requests waiting for the bucket's budget now. */
  waiting(bucket: BudgetBucket, count: number): void;
  /** A request the bucket's budget refused (too many waiting, or a full send queue). */
  refused(bucket: BudgetBucket): void;
}

/** Counts nothing: a feed made without meters (tests, tools). */
export const noFeedMeters: FeedMeters = Object.freeze({
  frame: () => {}, lag: () => {}, waiting: () => {}, refused: () => {},
});

/** The index in feedChannels of a frame kind of ws-frames.ts. */
export function channelIndexOf(kind: string): number {
  switch (kind) {
    case 'trades': return 0;
    case 'book': return 1;
    case 'ctx': return 2;
    default: return 3;
  }
}
