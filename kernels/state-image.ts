// An exact, plain-data image of a kernel state tree (plain objects, arrays, typed arrays, numbers,
// strings, booleans and t-digests), and its restore into a freshly created tree of the same shape.
// Restarts resume from it (docs/decisions.md, Warm start): a restored tree answers every later
// update exactly as the captured one would have. The image holds no class instance, so any msgpack
// encoder with typed-array support (msgpackr `moreTypes`) carries it as it is.
import { VpinDigest } from './vpin-digest.js';

/** A t-digest's image: its scalars, and per centroid (in order) mean, n, cumn, mean_cumn. */
export interface DigestImage {
  readonly digest: 1;
  readonly delta: number;
  readonly K: number;
  readonly CX: number;
  readonly discrete: boolean;
  readonly n: number;
  readonly lastCumulate: number;
  readonly centroids: Float64Array;
}

export type StateImage =
  | number | string | boolean | null | undefined
  | ArrayBufferView | DigestImage | StateImage[] | { [key: string]: StateImage };

/** An image that does not fit the tree it is restored into (other options or version). */
export class StateImageMismatch extends Error {
  constructor(readonly path: string, detail: string) {
    super(`state image does not fit at ${path}: ${detail}`);
    this.name = 'StateImageMismatch';
  }
}

/** Depth bound of a state tree: kernel states nest a few levels; a cycle would never end. */
const depthMax = 16;

/**
 * Captures `tree` into an image (digests flattened). Typed arrays are copied unless `shared`:
 * an image encoded at once (before the tree changes) may share them and save the copies.
 */
export function captureState(tree: unknown, shared = false): StateImage {
  return capture(tree, 'state', 0, shared);
}

function capture(value: unknown, path: string, depth: number, shared: boolean): StateImage {
  if (depth > depthMax) throw new StateImageMismatch(path, 'nested too deep');
  if (value === null || value === undefined) return value;
  switch (typeof value) {
    case 'number': case 'string': case 'boolean': return value;
    case 'object': break;
    default: throw new StateImageMismatch(path, `cannot capture a ${typeof value}`);
  }
  if (ArrayBuffer.isView(value)) {
    return shared ? value : (value as unknown as { slice(): ArrayBufferView }).slice();
  }
  if (value instanceof VpinDigest) return captureDigest(value);
  if (Array.isArray(value)) {
    return value.map((v, i) => capture(v, `${path}[${i}]`, depth + 1, shared));
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) {
    throw new StateImageMismatch(path, 'cannot capture a class instance');
  }
  const out: { [key: string]: StateImage } = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = capture(v, `${path}.${key}`, depth + 1, shared);
  }
  return out;
}

function captureDigest(d: VpinDigest): DigestImage {
  return {
    digest: 1, delta: d.delta, K: d.K, CX: d.CX, discrete: d.discrete, n: d.n,
    lastCumulate: d.last_cumulate, centroids: d.centroidImage(),
  };
}

/**
 * Restores `image` into `tree`, a tree freshly created with the same options. Checks the whole
 * image first and throws StateImageMismatch (changing nothing) when any part does not fit:
 * another key set, array length, typed-array type or length, value kind, or a frozen value
 * (options) that differs.
 */
export function restoreState(tree: object, image: unknown): void {
  restore(tree, image, 'state', 0, false);
  restore(tree, image, 'state', 0, true);
}

/** Walks tree and image together; writes only when `apply` (after a clean check pass). */
function restore(tree: unknown, image: unknown, path: string, depth: number, apply: boolean):
  void {
  if (depth > depthMax) throw new StateImageMismatch(path, 'nested too deep');
  if (ArrayBuffer.isView(tree)) return restoreTyped(tree, image, path, apply);
  if (tree instanceof VpinDigest) return restoreDigest(tree, image, path, apply);
  if (Array.isArray(tree)) {
    if (!Array.isArray(image) || image.length !== tree.length) {
      throw new StateImageMismatch(path, `array of ${tree.length} expected`);
    }
    for (let i = 0; i < tree.length; i++) {
      restoreSlot(tree as unknown[], i, image[i], `${path}[${i}]`, depth, apply);
    }
    return;
  }
  if (tree === null || typeof tree !== 'object') throw new StateImageMismatch(path, 'not a tree');
  if (image === null || typeof image !== 'object' || Array.isArray(image)) {
    throw new StateImageMismatch(path, 'object expected');
  }
  const keys = Object.keys(tree);
  const imageKeys = Object.keys(image);
  if (imageKeys.length !== keys.length || !keys.every((k) => Object.hasOwn(image, k))) {
    throw new StateImageMismatch(path, `keys ${keys.join(',')} expected`);
  }
  const frozen = Object.isFrozen(tree);
  for (const key of keys) {
    const slotPath = `${path}.${key}`;
    const v = (image as Record<string, unknown>)[key];
    if (frozen && !isTree((tree as Record<string, unknown>)[key])) {
      if (!Object.is((tree as Record<string, unknown>)[key], v)) {
        throw new StateImageMismatch(slotPath, 'a fixed value differs');
      }
      continue;
    }
    restoreSlot(tree as Record<string, unknown>, key, v, slotPath, depth, apply);
  }
}

function isTree(v: unknown): boolean {
  return v !== null && typeof v === 'object';
}

/** One slot of an object or array: a leaf is assigned, a tree is restored in place. */
function restoreSlot(holder: Record<string, unknown> | unknown[], key: string | number,
  image: unknown, path: string, depth: number, apply: boolean): void {
  const slots = holder as Record<string | number, unknown>;
  const current = slots[key];
  if (isTree(current)) return restore(current, image, path, depth + 1, apply);
  const kind = current === null || current === undefined ? 'empty' : typeof current;
  const imageKind = image === null || image === undefined ? 'empty' : typeof image;
  // A leaf that is null or undefined now may hold a value later (and the other way round).
  if (kind !== imageKind && kind !== 'empty' && imageKind !== 'empty') {
    throw new StateImageMismatch(path, `${kind} expected, ${imageKind} found`);
  }
  if (isTree(image)) throw new StateImageMismatch(path, 'a value expected');
  if (apply) slots[key] = image;
}

function restoreTyped(tree: ArrayBufferView, image: unknown, path: string, apply: boolean):
  void {
  if (!ArrayBuffer.isView(image) || image.constructor !== tree.constructor ||
    image.byteLength !== tree.byteLength) {
    throw new StateImageMismatch(path, `${tree.constructor.name} of ${tree.byteLength} bytes`);
  }
  if (!apply) return;
  new Uint8Array(tree.buffer, tree.byteOffset, tree.byteLength)
    .set(new Uint8Array(image.buffer, image.byteOffset, image.byteLength));
}

function restoreDigest(d: VpinDigest, image: unknown, path: string, apply: boolean): void {
  const i = image as DigestImage | null;
  if (i === null || typeof i !== 'object' || i.digest !== 1 ||
    !(i.centroids instanceof Float64Array) || i.centroids.length % 4 !== 0) {
    throw new StateImageMismatch(path, 't-digest expected');
  }
  if (i.delta !== d.delta || i.K !== d.K || i.CX !== d.CX || i.discrete !== d.discrete) {
    throw new StateImageMismatch(path, 't-digest options differ');
  }
  if (!apply) return;
  // Centroids are kept by mean (unique): inserting them rebuilds the same order, and every
  // answer of the digest depends on that order and the centroids' fields alone.
  d.restoreImage(i.centroids, i.n, i.lastCumulate);
}
