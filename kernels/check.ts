// Input assertions shared by every kernel: a bad event is a programmer error upstream, so throw.

/** Throws a RangeError naming the field, what was expected and what was found. */
export function reject(field: string, expected: string, found: unknown): never {
  throw new RangeError(`${field} must be ${expected} (was ${String(found)})`);
}

/**
 * Asserts one trade: finite price > 0, finite size > 0, side +1|-1, time not going back.
 * One chain of comparisons (NaN fails each): it is inlined into every trade path, so it stays
 * small and leaves naming the bad field to rejectTrade.
 */
export function checkTrade(
  tsMs: number, price: number, size: number, side: number, lastTsMs: number,
): void {
  if (!(price > 0 && price < Infinity && size > 0 && size < Infinity &&
    (side === 1 || side === -1) && tsMs >= lastTsMs && tsMs > -Infinity && tsMs < Infinity)) {
    rejectTrade(tsMs, price, size, side, lastTsMs);
  }
}

function rejectTrade(
  tsMs: number, price: number, size: number, side: number, lastTsMs: number,
): never {
  if (!(price > 0 && price < Infinity)) reject('trade price', 'a finite number > 0', price);
  if (!(size > 0 && size < Infinity)) reject('trade size', 'a finite number > 0', size);
  if (side !== 1 && side !== -1) reject('trade side', '+1 or -1', side);
  checkTime(tsMs, lastTsMs);
  // Unreachable: the chain above failed on one of these.
  throw new Error('rejectTrade called with a valid trade');
}

/** Asserts a market timestamp: finite and not before the previous one (-Infinity: none yet). */
export function checkTime(tsMs: number, lastTsMs: number): void {
  if (!Number.isFinite(tsMs)) reject('tsMs', 'a finite epoch millisecond', tsMs);
  if (tsMs < lastTsMs) reject('tsMs', `not before the previous event ${lastTsMs}`, tsMs);
}

/** Asserts a numeric option: finite and within [min, max]; integers when asked. */
export function checkOption(
  name: string, value: number, min: number, max: number, integer = false,
): void {
  const ok = typeof value === 'number' && Number.isFinite(value) && value >= min &&
    value <= max && (!integer || Number.isInteger(value));
  if (!ok) reject(`option ${name}`, `${integer ? 'an integer' : 'a number'} in [${min}, ${max}]`,
    value);
}

/** Asserts a book side: `levels` within the arrays, prices finite > 0, sizes finite >= 0. */
export function checkBookSide(
  side: string, px: Float64Array, sz: Float64Array, levels: number,
): void {
  checkBookLevels(side, px, sz, levels);
  // One test per level on the common path; naming the bad field is left to rejectBookLevel.
  for (let i = 0; i < levels; i++) {
    const p = px[i];
    const q = sz[i];
    if (!(p > 0 && p < Infinity && q >= 0 && q < Infinity)) rejectBookLevel(side, i, p, q);
  }
}

/** Asserts a book side's level count: an integer within both arrays. */
export function checkBookLevels(
  side: string, px: Float64Array, sz: Float64Array, levels: number,
): void {
  if (!(Number.isInteger(levels) && levels >= 0 && levels <= px.length && levels <= sz.length)) {
    reject(`book ${side} levels`, `an integer in [0, ${Math.min(px.length, sz.length)}]`, levels);
  }
}

/** Throws for a book level that failed the per-level test, naming price or size. */
export function rejectBookLevel(side: string, i: number, p: number, q: number): never {
  if (!(p > 0 && p < Infinity)) reject(`book ${side} price [${i}]`, 'a finite number > 0', p);
  reject(`book ${side} size [${i}]`, 'a finite number >= 0', q);
}
