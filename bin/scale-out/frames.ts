// The bytes that carry a snapshot from ingest to the fronts through Redis: a length-prefixed
// JSON header (name, meta, ordering stamp) and the view's bytes exactly as ingest serves them.
// The channel carries batches (the frames ingest put in one turn, up to 64 KB a message).
//
//   frame: [ u32 BE header length | header JSON | body bytes ]
//   batch: [ f64 BE sent at (ms) | [ u32 BE frame length | frame ] ... ]

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
      readonly body: Buffer }
  | { readonly kind: 'delete'; readonly name: string; readonly stamp: FrameStamp }
  | { readonly kind: 'beat'; readonly stamp: FrameStamp; readonly sentAtMs: number };

/** A frame's header: every field but the body (the JSON at the frame's start). */
export type FrameHeader = Exclude<Frame, { kind: 'put' }> | Omit<Extract<Frame, { kind: 'put' }>,
  'body'>;

/**
 * A put frame's header JSON, as `JSON.stringify` of its FrameHeader gives it (same fields, same
 * order), written as one template: no header and stamp objects per view, and ~2.5 µs less a put
 * than building and stringifying them (ingest frames hundreds of views a turn). The numbers are
 * finite (the store checks updatedAtMs and cadenceMs; the stamp and clock are integers).
 */
export function putHeaderJson(name: string, stamp: FrameStamp, sentAtMs: number,
  updatedAtMs: number, cadenceMs: number, etag: string | undefined): string {
  return `{"kind":"put","name":${JSON.stringify(name)},"stamp":{"epochMs":${stamp.epochMs},` +
    `"seq":${stamp.seq}},"sentAtMs":${sentAtMs},"updatedAtMs":${updatedAtMs},` +
    `"cadenceMs":${cadenceMs}${etag === undefined ? '' : `,"etag":${JSON.stringify(etag)}`}}`;
}

const headerBytesMax = 4_096;
/** A batch's leading sent-at stamp; the length prefix before each of its frames. */
export const batchStampBytes = 8;
export const frameLengthBytes = 4;

/** The bytes a frame of this header (its UTF-8 length) and body takes. */
export function frameBytes(headerBytes: number, body: Uint8Array | undefined): number {
  return 4 + headerBytes + (body?.byteLength ?? 0);
}

/** Writes a frame at `at` (the target holds frameBytes of it); returns where it ends. */
export function writeFrame(target: Buffer, at: number, header: string, headerBytes: number,
  body: Uint8Array | undefined): number {
  target.writeUInt32BE(headerBytes, at);
  target.write(header, at + 4, headerBytes, 'utf8');
  const end = at + 4 + headerBytes;
  if (body === undefined) return end;
  target.set(body, end);
  return end + body.byteLength;
}

export function encodeFrame(frame: Frame): Buffer {
  const { body, ...header } = frame as Frame & { body?: Buffer };
  const json = JSON.stringify(header);
  const headerBytes = Buffer.byteLength(json);
  const bytes = Buffer.allocUnsafe(frameBytes(headerBytes, body));
  writeFrame(bytes, 0, json, headerBytes, body);
  return bytes;
}

/** The frame in some bytes; throws on anything that is not one (a foreign publisher). */
export function decodeFrame(bytes: Buffer): Frame {
  if (bytes.length < 4) throw new RangeError('frame shorter than its length prefix');
  const length = bytes.readUInt32BE(0);
  if (length > headerBytesMax || 4 + length > bytes.length) {
    throw new RangeError(`frame header of ${length} bytes does not fit`);
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
