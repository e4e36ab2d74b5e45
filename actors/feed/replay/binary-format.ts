// The binary replay format, version 1: the events of a replay file as length-prefixed records
// of little-endian fields, for replays where reading text would cost more than the analytics
// (a deep book is hundreds of digits in the compact format, and parsing them costs as much as
// the kernels' whole work on the event). Numbers are stored
// as the doubles the service computes with, so a value reads back exactly, and every record
// starts at a multiple of 8 bytes with its doubles aligned: a reader takes them with typed
// array loads, no parsing. The layout is documented in docs/feeds.md ("Binary format").
//
//   #orderflow-replay binary v1\n then zero bytes   header: the file's first 32 bytes
//   then records, each padded with zero bytes to a multiple of 8:
//   offset 0 u32 length (the bytes after this field, padding not counted), 4 u8 kind
//   S  6 u16 index, 8 UTF-8 symbol                 (re)defines a symbol index
//   A  6 u16 index, 8 UTF-8 address                (re)defines an address index
//   T  5 i8 side, 6 u16 sym, 8 f64 tsMs, 16 f64 price, 24 f64 size, 32 f64 tradeId,
//      40 i32 buyer, 44 i32 seller                 buyer/seller: address index, -1 for null
//   B  6 u16 sym, 8 f64 tsMs, 16 u16 bidLevels, 18 u16 askLevels, 24 f64 bid prices, then
//      bid sizes, ask prices, ask sizes            best first, one f64 per level each
//   C  5 u8 nulls, 6 u16 sym, 8 f64 tsMs, 16 f64 markPx, prevDayPx, dayNtlVlm, openInterest,
//      fundingRate, oraclePx, midPx                nulls: bit 0 oraclePx, bit 1 midPx
//   J  8 UTF-8 canonical JSON                      any other event (or one T/B/C cannot carry)
//
// Symbol and address indexes follow the compact format's tables (compact-format.ts): the same
// bounds, and a later name takes the slot defined longest ago.

export const BINARY_VERSION = 1;
/** The header's text; zero bytes pad it to HEADER_BYTES. */
export const BINARY_HEADER = `#orderflow-replay binary v${BINARY_VERSION}\n`;
export const HEADER_BYTES = 32;
/** Prefix of any binary header, whatever its version. */
export const BINARY_HEADER_PREFIX = '#orderflow-replay binary v';

/** Record kinds: the ASCII letter of the compact line that carries the same event. */
export const KIND_SYMBOL = 83;
export const KIND_ADDRESS = 65;
export const KIND_TRADE = 84;
export const KIND_BOOK = 66;
export const KIND_CTX = 67;
export const KIND_JSON = 74;

/** Bytes of the length field in front of every record. */
export const LENGTH_BYTES = 4;
/** Records start at multiples of this. */
export const ALIGN_BYTES = 8;
/** A record longer than this is taken for corruption (the JSON format's line bound). */
export const RECORD_BYTES_MAX = 64 << 20;

/** Byte offsets within a record, from its length field. */
export const AT_KIND = 4;
export const AT_FLAGS = 5;
export const AT_SYMBOL = 6;
export const AT_TS = 8;
export const AT_TEXT = 8;
export const AT_PRICE = 16;
export const AT_SIZE = 24;
export const AT_TRADE_ID = 32;
export const AT_BUYER = 40;
export const AT_SELLER = 44;
export const TRADE_BYTES = 48;
export const AT_BID_LEVELS = 16;
export const AT_ASK_LEVELS = 18;
export const AT_LEVELS = 24;
/** markPx .. midPx from AT_CTX, eight bytes apart. */
export const AT_CTX = 16;
export const CTX_NUMBERS = 7;
export const CTX_BYTES = AT_CTX + 8 * CTX_NUMBERS;
export const NULL_ORACLE = 1;
export const NULL_MID = 2;

/** Where the record after one at `pos` with `length` starts. */
export function nextRecordAt(pos: number, length: number): number {
  return (pos + LENGTH_BYTES + length + ALIGN_BYTES - 1) & -ALIGN_BYTES;
}

/** The typed views a reader takes fields with: one ArrayBuffer, every view from offset 0. */
export interface RecordViews {
  /** The bytes (a Buffer, for text). */
  readonly u8: Buffer;
  readonly u16: Uint16Array;
  readonly i32: Int32Array;
  readonly u32: Uint32Array;
  readonly f64: Float64Array;
}

/** Views over `bytes`, which must start at offset 0 of its buffer and be 8-byte sized. */
export function viewsOf(bytes: ArrayBuffer): RecordViews {
  return { u8: Buffer.from(bytes), u16: new Uint16Array(bytes), i32: new Int32Array(bytes),
    u32: new Uint32Array(bytes), f64: new Float64Array(bytes) };
}

/** The typed views read fields in the host's byte order: the format is little-endian. */
export const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The file's first HEADER_BYTES: the header text, then zero bytes. */
export function binaryHeaderBytes(): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(BINARY_HEADER, 'latin1');
  return header;
}
