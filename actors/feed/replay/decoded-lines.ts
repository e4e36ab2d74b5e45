// The reused records the compact decoder fills per line: shared by the general decoder and the
// fused fast readers, which is why they live in neither.
import type { BookFields, TradeFields } from '../feed-types.js';

/** The trade of the fast path: overwritten by every decodeTrade. */
export interface DecodedTrade extends TradeFields {
  symbol: string;
  /** The line's symbol index: stable until the file redefines it (then `symbol` changes). */
  symbolIndex: number;
}

/** The book of the fast path: overwritten by every decodeBookFast. */
export interface DecodedBook extends BookFields {
  symbol: string;
  /** As DecodedTrade.symbolIndex. */
  symbolIndex: number;
}
