// A view's new bytes as a patch of an earlier version's (its keyframe): what ingest sends a front
// that holds that version, instead of the whole body (docs/scale-out.md, "Patches"). Between two
// cadences a pair's deep view (~20 KB) changes in a few numbers and its time stamps, so the patch
// is a few hundred bytes: less for ingest to write, Redis to forward and a front to read and
// collect than the whole view, once per front.
//
//   patch: [ u32 BE literal length | literal bytes | u32 BE copy from | u32 BE copy length ] ...
//
// Each op writes its literal, then copies a run of the base; the target is the ops in order.
// The diff looks for the base's runs near where the last run left off (a changed number moves
// what follows by a few bytes; an entry added to a list, by its length), so it is a few native
// compares and searches a view, not a general-purpose delta: a view that changed everywhere has
// no patch, and is sent whole.

/** A run shorter than this is sent as literal bytes: an op costs 12 bytes. */
const copyBytesMin = 16;
/** How far past a mismatch the base is first looked for at nearly the same shift (a changed
 *  number of about the same length), and how much nearer or farther. */
const nearBytes = 32;
const nearShiftMax = 4;
/** The bytes searched for to find where the base continues; long enough to be unique in a
 *  view's JSON (a list entry's repeated keys are shorter than a key with its time stamp). */
const anchorBytes = 32;
/** How far from the last run's end the base is searched, each way. */
const searchBytes = 512;
/** A failed search moves on this many bytes, twice as many after each failure in a row: a
 *  changed region costs a few searches, and a view changed throughout gives up in ~10. */
const stepBytes = 8;
const stepBytesMax = 1_024;
/**
 * A patch of more ops than this is not made: each op costs a search or two, and a view changed
 * in this many places (the screener's 170 rows of prices: 1.8 ms of diff before giving up, on
 * ingest's main thread) goes whole. The diff gives up as soon as its ops run ahead of this share
 * of the target so far (plus opsSlack), so a view changed all along is left early (~0.1 ms). A
 * cadence changes a deep view in ~6 places.
 */
const opsMax = 64;
const opsSlack = 8;
const opHeadBytes = 4;
const opCopyBytes = 8;

/** A run is first followed byte by byte this far: most runs at a changed value are short, and a
 *  native compare has a fixed cost a call. */
const looseBytes = 64;

/** Whether `a` from `i` and `b` from `j` agree over `bytes` (a native compare). */
function sameBlock(a: Buffer, i: number, b: Buffer, j: number, bytes: number): boolean {
  return a.compare(b, j, j + bytes, i, i + bytes) === 0;
}

/** Length of the common run of `a` from `i` and `b` from `j`: bytes first, then native compares
 *  of doubling blocks and halving ones back to the mismatch (a view's unchanged runs are
 *  kilobytes long). */
function commonRun(a: Buffer, i: number, b: Buffer, j: number): number {
  const max = Math.min(a.length - i, b.length - j);
  let n = 0;
  const loose = Math.min(max, looseBytes);
  while (n < loose && a[i + n] === b[j + n]) n++;
  if (n < looseBytes) return n;
  let block = 256;
  while (n + block <= max && sameBlock(a, i + n, b, j + n, block)) {
    n += block;
    if (block < 4_096) block *= 2;
  }
  for (block >>= 1; block >= looseBytes; block >>= 1) {
    if (n + block <= max && sameBlock(a, i + n, b, j + n, block)) n += block;
  }
  while (n < max && a[i + n] === b[j + n]) n++;
  return n;
}

/** Whether `a` from `i` and `b` from `j` agree over copyBytesMin bytes (both in range). */
function agrees(a: Buffer, i: number, b: Buffer, j: number): boolean {
  for (let k = 0; k < copyBytesMin; k++) if (a[i + k] !== b[j + k]) return false;
  return true;
}

/**
 * The first target position within nearBytes of `j` where the base agrees at a shift within
 * nearShiftMax of the current one (same shift first), as [target position, shift]; null when
 * there is none. A plain loop: it usually ends at the first byte compared.
 */
function resyncNear(base: Buffer, i: number, target: Buffer, j: number): [number, number] | null {
  const end = Math.min(j + nearBytes, target.length - copyBytesMin);
  for (let tj = j; tj <= end; tj++) {
    for (let e = 0; e <= 2 * nearShiftMax; e++) {
      const bi = i + (tj - j) + ((e & 1) === 1 ? (e + 1) >> 1 : -(e >> 1));
      if (bi >= 0 && bi + copyBytesMin <= base.length && agrees(base, bi, target, tj)) {
        return [tj, bi - tj];
      }
    }
  }
  return null;
}

/** Where in `base`, near `near`, the anchor at `target[j]` lies; -1 when it is not close by.
 *  Forward first: a changed value moves what follows by a few bytes. */
function findAnchor(base: Buffer, near: number, target: Buffer, j: number): number {
  const anchor = target.subarray(j, j + anchorBytes);
  const from = Math.max(0, Math.min(near, base.length));
  const ahead = base.subarray(from, Math.min(base.length, from + searchBytes)).indexOf(anchor);
  if (ahead >= 0) return from + ahead;
  const backFrom = Math.max(0, from - searchBytes);
  const behind = base.subarray(backFrom, Math.min(base.length, from + anchorBytes - 1))
    .lastIndexOf(anchor);
  return behind >= 0 ? backFrom + behind : -1;
}

/**
 * The patch that makes `target` from `base`, or null when it would take more than `maxBytes`
 * (the target is then better sent whole).
 */
export function diffBytes(base: Buffer, target: Buffer, maxBytes: number): Buffer | null {
  const ops: number[] = []; // per op: literal start, literal end, copy from, copy length
  let patchBytes = 0;
  let literalFrom = 0;
  let j = 0;
  let shift = 0; // base position minus target position of the last run
  let step = stepBytes;
  while (j < target.length) {
    const i = j + shift;
    const run = i >= 0 && i < base.length ? commonRun(base, i, target, j) : 0;
    if (run >= copyBytesMin) {
      if (ops.length >= 4 * Math.min(opsMax, opsSlack + opsMax * j / target.length)) return null;
      ops.push(literalFrom, j, i, run);
      patchBytes += opHeadBytes + (j - literalFrom) + opCopyBytes;
      if (patchBytes > maxBytes) return null;
      j += run;
      literalFrom = j;
      step = stepBytes;
      continue;
    }
    // Where the base continues: nearly the same shift (a changed number), unless that agrees
    // only briefly (a list's entries repeat their keys: an entry added or dropped shifts the
    // rest by its length), when the anchor search may find a longer run.
    const at = j + run;
    let next = resyncNear(base, i + run, target, at);
    let nextRun = next === null ? 0 : commonRun(base, next[0] + next[1], target, next[0]);
    if (nextRun < looseBytes && at + anchorBytes <= target.length) {
      const found = findAnchor(base, i + run, target, at);
      const foundRun = found < 0 ? 0 : commonRun(base, found, target, at);
      if (foundRun > nextRun) {
        next = [at, found - at];
        nextRun = foundRun;
      }
    }
    if (next !== null) {
      [j, shift] = next;
      continue;
    }
    j = Math.min(at + step, target.length);
    step = Math.min(2 * step, stepBytesMax);
    if (patchBytes + opHeadBytes + (j - literalFrom) + opCopyBytes > maxBytes) return null;
  }
  if (literalFrom < target.length) ops.push(literalFrom, target.length, 0, 0);
  return writeOps(ops, target);
}

function writeOps(ops: readonly number[], target: Buffer): Buffer {
  let bytes = 0;
  for (let k = 0; k < ops.length; k += 4) {
    bytes += opHeadBytes + ops[k + 1]! - ops[k]! + opCopyBytes;
  }
  const patch = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (let k = 0; k < ops.length; k += 4) {
    const literalFrom = ops[k]!;
    const literalTo = ops[k + 1]!;
    at = patch.writeUInt32BE(literalTo - literalFrom, at);
    at += target.copy(patch, at, literalFrom, literalTo);
    at = patch.writeUInt32BE(ops[k + 2]!, at);
    at = patch.writeUInt32BE(ops[k + 3]!, at);
  }
  return patch;
}

/** The target a patch makes of `base`; throws on a patch that does not fit the base or does
 *  not make exactly `targetBytes` (a foreign or damaged frame). */
export function applyPatch(base: Buffer, patch: Buffer, targetBytes: number): Buffer {
  const target = Buffer.allocUnsafe(targetBytes);
  let at = 0;
  let p = 0;
  while (p < patch.length) {
    if (p + opHeadBytes > patch.length) throw new RangeError('patch cut inside an op');
    const literalBytes = patch.readUInt32BE(p);
    p += opHeadBytes;
    if (p + literalBytes + opCopyBytes > patch.length || at + literalBytes > targetBytes) {
      throw new RangeError('patch literal out of bounds');
    }
    at += patch.copy(target, at, p, p + literalBytes);
    p += literalBytes;
    const from = patch.readUInt32BE(p);
    const copyBytes = patch.readUInt32BE(p + 4);
    p += opCopyBytes;
    if (from + copyBytes > base.length || at + copyBytes > targetBytes) {
      throw new RangeError('patch copy out of bounds');
    }
    at += base.copy(target, at, from, from + copyBytes);
  }
  if (at !== targetBytes) throw new RangeError(`patch makes ${at} bytes, not ${targetBytes}`);
  return target;
}
