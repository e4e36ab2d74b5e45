// Growing a ring buffer's columns: the queued entries are copied oldest first to the start of
// larger columns, so the grown ring's head is 0.
//
//   before (head 5, count 4, 6 slots):  [e3][e4][  ][  ][  ][e1]...   e1 e2 | e3 e4 wrap
//   after  (head 0, count 4, 12 slots): [e1][e2][e3][e4][  ][  ][  ]...

type Column = Uint8Array | Int8Array | Float64Array;

/**
 * `to` holding `from`'s `count` entries of `stride` elements each, oldest (at `head`) first.
 * `from.length / stride` is the old slot count; `to` must have room for `count` entries.
 */
export function unwrapColumn<T extends Column>(from: T, to: T, head: number, count: number,
  stride = 1): T {
  const slots = from.length / stride;
  const first = Math.min(count, slots - head);
  to.set(from.subarray(head * stride, (head + first) * stride), 0);
  to.set(from.subarray(0, (count - first) * stride), first * stride);
  return to;
}

/** A new array of `slots` entries (`empty` where unused) holding `from`'s ring, oldest first. */
export function unwrapSlots<T>(from: readonly T[], slots: number, empty: T, head: number,
  count: number): T[] {
  const to = new Array<T>(slots).fill(empty);
  for (let k = 0, i = head; k < count; k++, i = i + 1 === from.length ? 0 : i + 1) {
    to[k] = from[i];
  }
  return to;
}
