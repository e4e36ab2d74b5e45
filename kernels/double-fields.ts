// Number fields that start as doubles. V8 gives an object's field the representation of the
// first value stored in it: `0` makes a small-integer field, and the first fraction stored in
// it later moves every object of that shape to a new shape ("map deprecation"). Optimized code
// that read the old shape is thrown away and compiled again, and every other object still on
// it migrates on its next touch, in a deoptimization of its own: in a cold shard's warm-up,
// many migrations and recompiles of the hottest functions
// (bench/log/2026-11-26-warm-start-shard-cpu.md). Storing a fraction once at creation, before
// any code is optimized, moves the shape once, when nothing depends on it yet.

/** Gives `fields` of `target` the double representation; their values are unchanged. */
export function asDoubleFields<T extends object>(target: T, fields: readonly (keyof T)[]): T {
  const record = target as Record<keyof T, unknown>;
  for (const field of fields) {
    const value = record[field];
    record[field] = 0.5;
    record[field] = value;
  }
  return target;
}
