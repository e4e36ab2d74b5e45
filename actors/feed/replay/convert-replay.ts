// Converts a replay file between the JSON, compact and binary formats (any format in). Events
// keep their order and values exactly; bad lines (or records) are counted and left out.
import type { MarketEvent } from '../../../core/messages.js';
import { BinaryReplaySource } from './binary-source.js';
import { ByteLineReader } from './byte-line-reader.js';
import type { ReplayFormat } from './compact-format.js';
import { LineWriter } from './line-writer.js';
import { ReplayDecoder } from './replay-decoder.js';
import { sniffReplayFile } from './replay-input.js';

/** Bad lines whose message the result keeps (the rest are only counted). */
const BAD_SAMPLES_MAX = 10;

export interface ConvertResult {
  readonly events: number;
  readonly badLines: number;
  /** The first few bad lines: 1-based line number and what is wrong. */
  readonly badSamples: readonly { readonly line: number; readonly reason: string }[];
}

/**
 * Reads every event of `input` in order; bad lines go to `bad` with their line number (the
 * record number in a binary file).
 */
export function readReplayFile(input: string, each: (event: MarketEvent) => void,
  bad: (line: number, reason: string) => void = () => {}): void {
  const sniffed = sniffReplayFile(input);
  if (sniffed.format === 'binary') return readBinaryFile(input, sniffed.headerError, each, bad);
  const reader = new ByteLineReader(input);
  const decoder = new ReplayDecoder();
  let tooLong = 0;
  const skipped = () => {
    if (reader.tooLong !== tooLong) bad(reader.tooLongLineNumber, 'line: too long, skipped');
    tooLong = reader.tooLong;
  };
  try {
    while (reader.next()) {
      skipped();
      const event = decoder.decode(reader.buf, reader.start, reader.end, null);
      if (typeof event === 'string') bad(reader.lineNumber, event);
      else if (event !== null) each(event);
    }
    skipped();
  } finally {
    reader.close();
  }
}

function readBinaryFile(input: string, headerError: string | null,
  each: (event: MarketEvent) => void, bad: (record: number, reason: string) => void): void {
  const source: BinaryReplaySource = new BinaryReplaySource(input, () => true,
    (reason) => bad(source.recordNumber, reason), false, undefined, headerError);
  source.linesLeft = Infinity;
  try {
    for (let e = source.next(); e !== null; e = source.next()) each(e as MarketEvent);
  } finally {
    source.close();
  }
}

/** Writes `input`'s events to `output` in `format` ('json', 'compact' or 'binary'). */
export function convertReplayFile(input: string, output: string, format: ReplayFormat):
  ConvertResult {
  const writer = new LineWriter(output, { format });
  const badSamples: { line: number; reason: string }[] = [];
  let badLines = 0;
  try {
    readReplayFile(input, (event) => writer.write(event), (line, reason) => {
      badLines++;
      if (badSamples.length < BAD_SAMPLES_MAX) badSamples.push({ line, reason });
    });
  } finally {
    writer.close();
  }
  return { events: writer.lines, badLines, badSamples };
}
