// The compact replay format, version 1: short comma-separated lines for trades, books and ctx,
// with symbols and addresses defined once and then referred to by index; every other event
// stays a canonical JSON line. The layout is documented in docs/feeds.md ("Compact format").
//
//   #orderflow-replay compact v1                        header: first line of the file
//   S,<index>,<symbol>                                  (re)defines a symbol index
//   A,<index>,<address>                                 (re)defines an address index
//   T,<sym>,<tsMs>,<price>,<size>,<side>,<tradeId>,<buyer>,<seller>
//                                                       side 1 | -1; buyer/seller: address
//                                                       index, empty for null
//   B,<sym>,<tsMs>,<bidLevels>,<askLevels>,<px>,<sz>,...  bids best first, then asks
//   C,<sym>,<tsMs>,<markPx>,<prevDayPx>,<dayNtlVlm>,<openInterest>,<fundingRate>,<oraclePx>,
//     <midPx>                                           oraclePx, midPx: empty for null
//   {"type":...}                                        any other event, canonical JSON

export const COMPACT_VERSION = 1;
export const COMPACT_HEADER = `#orderflow-replay compact v${COMPACT_VERSION}`;
/** Prefix of any compact header, whatever its version. */
export const COMPACT_HEADER_PREFIX = '#orderflow-replay compact v';

/** Symbol indexes in a file: a later symbol reuses the slot defined longest ago. */
export const COMPACT_SYMBOLS_MAX = 4_096;
/** Address indexes in a file: a later address reuses the slot defined longest ago. */
export const COMPACT_ADDRESSES_MAX = 65_536;
/** Book levels per side a B line may carry (the venue sends 20). */
export const COMPACT_BOOK_LEVELS_MAX = 1_000;

/** The output formats of the replay writer (binary: binary-format.ts). */
export type ReplayFormat = 'json' | 'compact' | 'binary';
export const REPLAY_FORMATS: readonly ReplayFormat[] = ['json', 'compact', 'binary'];

/** True for text that can sit in a comma-separated field as is. */
export function isPlainField(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44 || c < 32) return false;
  }
  return true;
}

/** The format a command line names (none: json), or null when `text` names none. */
export function replayFormatOf(text: string | undefined): ReplayFormat | null {
  const format = text ?? 'json';
  return (REPLAY_FORMATS as readonly string[]).includes(format) ? format as ReplayFormat : null;
}
