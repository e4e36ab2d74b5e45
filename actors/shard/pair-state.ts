// A pair's saved state (docs/decisions.md, Warm start): the engine's state tree as an exact image
// (kernels/state-image.ts), with a format version and a fingerprint of the options it was made
// under, encoded with msgpackr. A record from another version or other options is refused
// with a reason (the caller logs it and starts the pair fresh), never a crash.
import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Packr } from 'msgpackr';
import type { StateImage } from '../../kernels/state-image.js';
import { ownedBytes } from '../../core/owned-bytes.js';

/** Bump when the engine's state tree changes shape or meaning. */
export const PAIR_STATE_FORMAT = 4;

export interface PairStateRecord {
  readonly format: number;
  /** Hash of the options the state was built under (kernels, signal detector). */
  readonly fingerprint: string;
  readonly symbol: string;
  /** Market time of the newest event folded in: a restore fills the time after it. */
  readonly marketMs: number;
  readonly image: StateImage;
}

// moreTypes: typed arrays keep their type (without it msgpackr writes bare bytes).
const packr = new Packr({ moreTypes: true, useRecords: false });


export function optionsFingerprint(options: unknown): string {
  return createHash('sha256').update(JSON.stringify(options)).digest('base64url').slice(0, 16);
}

/**
 * Deflated (level 1): three quarters of an image are the zeros of windows not yet full, so a
 * 0.5 MB state shrinks to ~70 KB, which is what the store writes every minute and a stop waits
 * for. The bytes own their buffer (moved, not copied, to the main thread).
 */
export function encodePairState(record: PairStateRecord): Uint8Array {
  return ownedBytes(deflateRawSync(packr.pack(record), { level: 1 }));
}

/** The record in `bytes`, or why it cannot be used. */
export function decodePairState(bytes: Uint8Array, symbol: string, fingerprint: string):
  PairStateRecord | string {
  let record: PairStateRecord;
  try {
    record = packr.unpack(inflateRawSync(bytes)) as PairStateRecord;
  } catch (error) {
    return `undecodable (${(error as Error).message})`;
  }
  if (record === null || typeof record !== 'object') return 'not a pair state';
  if (record.format !== PAIR_STATE_FORMAT) {
    return `format ${String(record.format)}, this version reads ${PAIR_STATE_FORMAT}`;
  }
  if (record.symbol !== symbol) return `state of ${String(record.symbol)}`;
  if (record.fingerprint !== fingerprint) return 'made under other options';
  if (!Number.isFinite(record.marketMs)) return 'no market time';
  return record;
}
