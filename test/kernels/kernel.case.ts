// The conformance suite every kernel passes: reset restores the initial snapshot, a snapshot
// does not change state, memory stays bounded after 10^6 updates, invalid input is rejected
// (and leaves the state as it was).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

export interface KernelCase<S> {
  readonly name: string;
  create(): S;
  /** Feeds valid event number i (times never decrease with i). */
  feed(state: S, i: number): void;
  /** A deep plain copy of the kernel's snapshot. */
  snapshot(state: S): unknown;
  reset(state: S): void;
  /** Calls that must throw a RangeError. */
  readonly invalid: readonly (readonly [string, (state: S) => void])[];
  /** Updates for the memory check (10^6 by default). */
  readonly updates?: number;
}

/** Deep plain copy: typed arrays become arrays, NaN stays distinguishable as 'NaN'. */
export function plainCopy(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) return Array.from(value as Float64Array, (x) => plainCopy(x));
  if (Array.isArray(value)) return value.map(plainCopy);
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plainCopy(v);
    return out;
  }
  return value;
}

/** Bytes reachable from `root`, estimated: typed arrays by byteLength, 8 per other slot. */
export function reachableBytes(root: unknown): number {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  let bytes = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || seen.has(v)) {
      bytes += typeof v === 'string' ? v.length * 2 : 8;
      continue;
    }
    seen.add(v);
    if (ArrayBuffer.isView(v)) {
      bytes += v.byteLength + 64;
      continue;
    }
    bytes += 16;
    for (const key of Object.keys(v)) stack.push((v as Record<string, unknown>)[key]);
  }
  return bytes;
}

export function runKernelCase<S>(c: KernelCase<S>): void {
  const test = suite(`conformance: ${c.name}`);
  const feed = (s: S, from: number, to: number) => {
    for (let i = from; i < to; i++) c.feed(s, i);
  };

  test('reset restores the initial snapshot, and the state behaves like a fresh one', () => {
    const s = c.create();
    const initial = c.snapshot(s);
    feed(s, 0, 5000);
    assert.not.equal(c.snapshot(s), initial, 'feeding changed nothing: the case is too weak');
    c.reset(s);
    assert.equal(c.snapshot(s), initial);
    const fresh = c.create();
    feed(s, 0, 3000);
    feed(fresh, 0, 3000);
    assert.equal(c.snapshot(s), c.snapshot(fresh));
  });

  test('a snapshot does not change the state', () => {
    const watched = c.create();
    const quiet = c.create();
    for (let i = 0; i < 3000; i++) {
      c.feed(watched, i);
      c.feed(quiet, i);
      if (i % 7 === 0) c.snapshot(watched);
    }
    assert.equal(c.snapshot(watched), c.snapshot(watched));
    assert.equal(c.snapshot(watched), c.snapshot(quiet));
  });

  test('memory stays bounded after 10^6 updates', () => {
    const updates = c.updates ?? 1_000_000;
    const s = c.create();
    feed(s, 0, updates / 10);
    const early = reachableBytes(s);
    feed(s, updates / 10, updates);
    const late = reachableBytes(s);
    assert.ok(late <= early * 1.1 + 16_384, `grew from ${early} to ${late} bytes`);
  });

  test('invalid input is rejected and leaves the state unchanged', () => {
    for (const [label, call] of c.invalid) {
      const s = c.create();
      feed(s, 0, 200);
      const before = c.snapshot(s);
      assert.throws(() => call(s), (e: unknown) => e instanceof RangeError, label);
      assert.equal(c.snapshot(s), before, `${label} changed the state`);
    }
  });

  test.run();
}
