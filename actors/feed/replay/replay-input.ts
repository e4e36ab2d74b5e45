// Opens a replay file in whichever format it holds: the binary format is recognized by its
// header (binary-format.ts), anything else is read as text lines (JSON, or compact after its
// header). Both sources answer alike, so the driver and the converter need not know which.
import { closeSync, openSync, readSync } from 'node:fs';
import type { MarketEvent } from '../../../core/messages.js';
import { BinaryReplaySource } from './binary-source.js';
import { BINARY_HEADER, BINARY_HEADER_PREFIX } from './binary-format.js';
import type { FastLines } from './compact-run.js';
import type {
  BOOK, DecodedBook, DecodedTrade, OUT_OF_LINES, TRADE, Wants,
} from './replay-decoder.js';
import { ReplaySource } from './replay-source.js';

/** One replay file's events in order (ReplaySource and BinaryReplaySource). */
export interface ReplayInput {
  readonly originMs: number;
  linesLeft: number;
  readonly trade: DecodedTrade;
  readonly book: DecodedBook;
  next(): MarketEvent | null | typeof OUT_OF_LINES | typeof TRADE | typeof BOOK;
  runFast(lines: FastLines, untilMs: number, eventsMax: number): number;
  close(): void;
}

/** What a file's first bytes say it holds. */
export type SniffedFormat =
  | { readonly format: 'text' }
  /** headerError: the header names another version (the file is refused with it). */
  | { readonly format: 'binary'; readonly headerError: string | null };

export function sniffReplayFile(file: string): SniffedFormat {
  const head = Buffer.alloc(64);
  const fd = openSync(file, 'r');
  let bytes = 0;
  try {
    bytes = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const text = head.toString('latin1', 0, bytes);
  if (!text.startsWith(BINARY_HEADER_PREFIX)) return { format: 'text' };
  return { format: 'binary', headerError: text.startsWith(BINARY_HEADER) ? null :
    `header: expected ${JSON.stringify(BINARY_HEADER.trim())} (was ${JSON.stringify(
      text.split('\n')[0].slice(0, 60))}); the file is skipped` };
}

/** A source for `file` in its own format (arguments as ReplaySource's). */
export function openReplayInput(file: string, wants: Wants, bad: (reason: string) => void,
  fastLines = false, chunkBytes?: number): ReplayInput {
  const sniffed = sniffReplayFile(file);
  if (sniffed.format === 'text') return new ReplaySource(file, wants, bad, fastLines, chunkBytes);
  return new BinaryReplaySource(file, wants, bad, fastLines, chunkBytes, sniffed.headerError);
}
