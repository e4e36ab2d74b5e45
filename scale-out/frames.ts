// The bytes that carry a snapshot from ingest to the fronts through Redis: a length-prefixed
// header (name, meta, ordering stamp) and the view's bytes exactly as ingest serves them.
// The channel carries batches (the frames ingest put in one turn, up to 64 KB a message).
//
//   frame: [ u32 BE header length | header | body bytes ]
//   batch: [ f64 BE sent at (ms) | [ u32 BE frame length | frame ] ... ]
//
// A put's header is binary (putHeaderMarker; layout at writePutHeader): a front reads it with a
// few fixed-offset reads, far cheaper than JSON.parse of the same bytes for every view. Beats
// and deletions, rare, keep a JSON header (it starts with '{'); a front still reads a put with
// a JSON header, as ingest wrote them before.

export interface FrameStamp {
  /** When the publishing ingest started: a restarted ingest's frames win over older ones. */
  readonly epochMs: number;
  /** Increases with every frame one ingest publishes. */
  readonly seq: number;
}

export type Frame =
  | { readonly kind: 'put'; readonly name: string; readonly stamp: FrameStamp;
      readonly updatedAtMs: number; readonly cadenceMs: number; readonly sentAtMs: number;
      /** The strong ETag ingest computed of the body: a front does not hash it again. */
      readonly etag?: string;
      /** Set when `body` is a patch (patch.ts) of the view's keyframe, not the view's bytes. */
      readonly patch?: PatchOf;
      readonly body: Buffer }
  | { readonly kind: 'delete'; readonly name: string; readonly stamp: FrameStamp }
  | { readonly kind: 'beat'; readonly stamp: FrameStamp; readonly sentAtMs: number };

/** What a patch frame's body patches: the keyframe (the put of this seq from the same ingest,
 *  sent whole), and the byte length of the view it makes. */
export interface PatchOf {
  readonly baseSeq: number;
  readonly targetBytes: number;
}

/** A frame's header: every field but the body (the JSON at the frame's start). */
export type FrameHeader = Exclude<Frame, { kind: 'put' }> | Omit<Extract<Frame, { kind: 'put' }>,
  'body'>;

/** A put's header fields, as ingest writes them in binary. */
export type PutHeader = Omit<Extract<Frame, { kind: 'put' }>, 'body' | 'kind'>;

/** The first byte of a binary put header (a JSON header's is '{'), and of a patch's. */
export const putHeaderMarker = 0x01;
export const patchHeaderMarker = 0x02;
/** A patch header's tail: f64 BE base seq, u32 BE target length. */
const patchTailBytes = 8 + 4;
/** Marker, five f64 (stamp epoch and seq, sent at, updated at, cadence), the name's u16 length. */
const putFixedBytes = 1 + 5 * 8 + 2;
/** The ETag's u16 length when the put has none. */
const noEtag = 0xffff;

/** A binary put header's byte length. */
export function putHeaderBytes(header: PutHeader): number {
  return putFixedBytes + Buffer.byteLength(header.name) + 2 +
    (header.etag === undefined ? 0 : Buffer.byteLength(header.etag, 'latin1')) +
    (header.patch === undefined ? 0 : patchTailBytes);
}

/**
 * Writes a put's binary header at `at`; returns where it ends. Layout: u8 marker, f64 BE stamp
 * epochMs, f64 BE stamp seq, f64 BE sentAtMs, f64 BE updatedAtMs, f64 BE cadenceMs, u16 BE name
 * length, name (UTF-8), u16 BE ETag length (0xffff: none), ETag (an ASCII token, latin1); a
 * patch's (marker patchHeaderMarker) then f64 BE base seq and u32 BE target length.
 */
export function writePutHeader(target: Buffer, at: number, header: PutHeader): number {
  target[at] = header.patch === undefined ? putHeaderMarker : patchHeaderMarker;
  target.writeDoubleBE(header.stamp.epochMs, at + 1);
  target.writeDoubleBE(header.stamp.seq, at + 9);
  target.writeDoubleBE(header.sentAtMs, at + 17);
  target.writeDoubleBE(header.updatedAtMs, at + 25);
  target.writeDoubleBE(header.cadenceMs, at + 33);
  const nameBytes = target.write(header.name, at + putFixedBytes, 'utf8');
  target.writeUInt16BE(nameBytes, at + putFixedBytes - 2);
  let end = at + putFixedBytes + nameBytes;
  if (header.etag === undefined) {
    target.writeUInt16BE(noEtag, end);
    end += 2;
  } else {
    const etagBytes = target.write(header.etag, end + 2, 'latin1');
    target.writeUInt16BE(etagBytes, end);
    end += 2 + etagBytes;
  }
  if (header.patch === undefined) return end;
  target.writeDoubleBE(header.patch.baseSeq, end);
  target.writeUInt32BE(header.patch.targetBytes, end + 8);
  return end + patchTailBytes;
}

const headerBytesMax = 4_096;
/** A batch's leading sent-at stamp; the length prefix before each of its frames. */
export const batchStampBytes = 8;
export const frameLengthBytes = 4;

/** The bytes a frame of this header (its UTF-8 length) and body takes. */
export function frameBytes(headerBytes: number, body: Uint8Array | undefined): number {
  return 4 + headerBytes + (body?.byteLength ?? 0);
}

/** A frame's header: a put's fields (binary) or a JSON text (beats, deletions). */
export type HeaderOut = PutHeader | string;

/** The header's byte length as writeFrame writes it. */
export function headerBytesOf(header: HeaderOut): number {
  return typeof header === 'string' ? Buffer.byteLength(header) : putHeaderBytes(header);
}

/** Writes a frame at `at` (the target holds frameBytes of it); returns where it ends. */
export function writeFrame(target: Buffer, at: number, header: HeaderOut, headerBytes: number,
  body: Uint8Array | undefined): number {
  target.writeUInt32BE(headerBytes, at);
  if (typeof header === 'string') target.write(header, at + 4, headerBytes, 'utf8');
  else writePutHeader(target, at + 4, header);
  const end = at + 4 + headerBytes;
  if (body === undefined) return end;
  target.set(body, end);
  return end + body.byteLength;
}

/** A frame's bytes: a put with its binary header, a beat or a deletion with a JSON one (or a
 *  put with a JSON one, as ingest wrote them before, with `jsonPut`). */
export function encodeFrame(frame: Frame, jsonPut = false): Buffer {
  const { body, ...fields } = frame as Frame & { body?: Buffer };
  const header: HeaderOut = frame.kind === 'put' && !jsonPut
    ? fields as PutHeader : JSON.stringify(fields);
  const headerBytes = headerBytesOf(header);
  const bytes = Buffer.allocUnsafe(frameBytes(headerBytes, body));
  writeFrame(bytes, 0, header, headerBytes, body);
  return bytes;
}

/** The frame in some bytes; throws on anything that is not one (a foreign publisher). */
export function decodeFrame(bytes: Buffer): Frame {
  if (bytes.length < 4) throw new RangeError('frame shorter than its length prefix');
  const length = bytes.readUInt32BE(0);
  if (length > headerBytesMax || 4 + length > bytes.length) {
    throw new RangeError(`frame header of ${length} bytes does not fit`);
  }
  if (bytes[4] === putHeaderMarker || bytes[4] === patchHeaderMarker) {
    return decodePut(bytes, length);
  }
  const header = JSON.parse(bytes.subarray(4, 4 + length).toString('utf8')) as Frame;
  const stamp = header.stamp;
  if (typeof stamp?.epochMs !== 'number' || typeof stamp.seq !== 'number') {
    throw new RangeError('frame without its stamp');
  }
  if (header.kind === 'beat') return header;
  if (typeof header.name !== 'string' || header.name.length === 0) {
    throw new RangeError('frame without a view name');
  }
  if (header.kind === 'delete') return header;
  if (header.kind !== 'put' || !Number.isFinite(header.updatedAtMs) ||
    !Number.isInteger(header.cadenceMs) ||
    (header.etag !== undefined && typeof header.etag !== 'string')) {
    throw new RangeError(`frame of unknown kind or meta (${String(header.kind)})`);
  }
  // The parsed header becomes the frame: no copy of it per view on the front's apply path.
  return Object.assign(header, { body: bytes.subarray(4 + length) });
}

/** A put or patch with a binary header of `length` bytes (writePutHeader has the layout). */
function decodePut(bytes: Buffer, length: number): Frame {
  const isPatch = bytes[4] === patchHeaderMarker;
  const end = 4 + length - (isPatch ? patchTailBytes : 0);
  const nameAt = 4 + putFixedBytes;
  if (end < nameAt + 2) throw new RangeError('put header cut short');
  const nameBytes = bytes.readUInt16BE(nameAt - 2);
  const etagAt = nameAt + nameBytes;
  if (nameBytes === 0 || etagAt + 2 > end) throw new RangeError('frame without a view name');
  const etagBytes = bytes.readUInt16BE(etagAt);
  if (etagBytes === noEtag ? etagAt + 2 !== end : etagAt + 2 + etagBytes !== end) {
    throw new RangeError('put header of the wrong length');
  }
  const updatedAtMs = bytes.readDoubleBE(29);
  const cadenceMs = bytes.readDoubleBE(37);
  if (!Number.isFinite(updatedAtMs) || !Number.isInteger(cadenceMs)) {
    throw new RangeError('put frame of unknown meta');
  }
  const put = {
    kind: 'put' as const,
    name: bytes.toString('utf8', nameAt, etagAt),
    stamp: { epochMs: bytes.readDoubleBE(5), seq: bytes.readDoubleBE(13) },
    sentAtMs: bytes.readDoubleBE(21),
    updatedAtMs,
    cadenceMs,
    etag: etagBytes === noEtag ? undefined : bytes.toString('latin1', etagAt + 2, end),
    body: bytes.subarray(4 + length),
  };
  if (!isPatch) return put;
  const patch = { baseSeq: bytes.readDoubleBE(end), targetBytes: bytes.readUInt32BE(end + 8) };
  if (!Number.isInteger(patch.baseSeq)) throw new RangeError('patch of an unknown base');
  // Added to the put, not a copy of it: nearly every frame a front reads is a patch.
  return Object.assign(put, { patch });
}

/** One channel message of several frames, stamped with the time it leaves. */
export function encodeBatch(frames: readonly Buffer[], sentAtMs: number): Buffer {
  const sent = Buffer.allocUnsafe(8);
  sent.writeDoubleBE(sentAtMs, 0);
  const parts: Buffer[] = [sent];
  for (const frame of frames) {
    const prefix = Buffer.allocUnsafe(4);
    prefix.writeUInt32BE(frame.length, 0);
    parts.push(prefix, frame);
  }
  return Buffer.concat(parts);
}

export interface Batch {
  /** When ingest sent it (its wall clock). */
  readonly sentAtMs: number;
  /** The frames, as views of the message's bytes. */
  readonly frames: Buffer[];
}

/** The frames of a channel message; throws on a truncated batch. */
export function splitBatch(bytes: Buffer): Batch {
  if (bytes.length < 8) throw new RangeError('batch shorter than its time stamp');
  const sentAtMs = bytes.readDoubleBE(0);
  const frames: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    if (at + 4 > bytes.length) throw new RangeError('batch cut inside a length prefix');
    const length = bytes.readUInt32BE(at);
    if (at + 4 + length > bytes.length) throw new RangeError('batch cut inside a frame');
    frames.push(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return { sentAtMs, frames };
}

/** Whether `a` was published after `b`. */
export function isNewer(a: FrameStamp, b: FrameStamp): boolean {
  return a.epochMs !== b.epochMs ? a.epochMs > b.epochMs : a.seq > b.seq;
}
