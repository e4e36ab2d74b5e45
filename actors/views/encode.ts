// Serializing a view once per change: JSON bytes with the freshness fields every feed carries,
// figures to 10 significant digits (core/json-numbers.ts), rounded here once per build.
import { stringifyRounded } from '../../core/json-numbers.js';

const encoder = new TextEncoder();

const twoDigits = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const threeDigits = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const dayMs = 86_400_000;
/** The Date range: ±100,000,000 days around the epoch. */
const dateMsMax = 8.64e15;
/** `YYYY-MM-DDT` by UTC day number: a feed's times fall on a few days. */
const dayPrefixes = new Map<number, string>();
const dayPrefixesMax = 4096;

/**
 * ISO 8601 UTC with milliseconds, the time format of every feed body: exactly
 * Date#toISOString, several times faster (views write a few hundred a publish:
 * bench/log/2026-11-27-view-encoding-and-state-saves.md). The date part is kept per day; the
 * time is arithmetic.
 */
export function isoMs(epochMs: number): string {
  // Fractions, NaN and the far range: the Date path (same truncation, same RangeError).
  if (!Number.isSafeInteger(epochMs) || Math.abs(epochMs) > dateMsMax) {
    return new Date(epochMs).toISOString();
  }
  const day = Math.floor(epochMs / dayMs);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= dayPrefixesMax) dayPrefixes.clear();
    // "HH:MM:SS.mmmZ" is the last 13 characters, whatever the year's width.
    prefix = new Date(day * dayMs).toISOString().slice(0, -13);
    dayPrefixes.set(day, prefix);
  }
  let rest = epochMs - day * dayMs;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  const hour = (rest - minute) / 60;
  return `${prefix}${twoDigits[hour]}:${twoDigits[minute]}:${twoDigits[second]}.` +
    `${threeDigits[milli]}Z`;
}

/** Adds `updatedAt` and `cadenceMs` (docs/decisions.md "Feeds and freshness") and encodes. */
export function encodeFeedView(body: Record<string, unknown>, updatedAtMs: number,
  cadenceMs: number): Uint8Array {
  return encoder.encode(feedJson(body, updatedAtMs, cadenceMs));
}

function feedJson(body: Record<string, unknown>, updatedAtMs: number, cadenceMs: number): string {
  return stringifyRounded({ ...body, updatedAt: isoMs(updatedAtMs), cadenceMs });
}

/**
 * The same for a body whose first fields are JSON text already (`head`: `"a":1,"b":[...]`,
 * lists kept between publishes), followed by `rest`'s fields.
 */
export function encodeFeedViewAfter(head: string, rest: Record<string, unknown>,
  updatedAtMs: number, cadenceMs: number): Uint8Array {
  return encoder.encode(`{${head},${feedJson(rest, updatedAtMs, cadenceMs).slice(1)}`);
}

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(stringifyRounded(value));
}

/** Annualized funding in percent on the venue's real settlement interval (docs/decisions.md). */
export function fundingAnnualizedPct(rate: number, intervalHours: number): number {
  return rate * (24 / intervalHours) * 365 * 100;
}

/** Rounds to `digits` significant decimals without turning integers into floats. */
export function roundTo(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** List items (or record members) encoded per step by the sliced encoders below. */
export const encodeStepItems = 16;

/**
 * `encodeFeedView`'s bytes, made `encodeStepItems` items of the list `listKey` a step (it must be
 * the body's first field): a cross-pair view of thousands of rows is milliseconds of encoding,
 * which in one callback makes every poll in flight wait (actors/runtime/sliced.ts runs the steps).
 * Each item goes through the same rounding replacer, so the text is the same.
 */
export function* encodeFeedViewSteps(body: Record<string, unknown>, listKey: string,
  updatedAtMs: number, cadenceMs: number): Generator<void, Uint8Array> {
  const { [listKey]: list, ...rest } = body;
  if (Object.keys(body)[0] !== listKey || !Array.isArray(list)) {
    throw new TypeError(`${listKey} must be the body's first field, a list`);
  }
  const parts: string[] = [];
  for (let i = 0; i < list.length; i += encodeStepItems) {
    const end = Math.min(i + encodeStepItems, list.length);
    for (let j = i; j < end; j++) parts.push(stringifyRounded(list[j]) ?? 'null');
    yield;
  }
  return encodeFeedViewAfter(`${JSON.stringify(listKey)}:[${parts.join(',')}]`, rest,
    updatedAtMs, cadenceMs);
}

/** `encodeJson`'s bytes for a record of objects, `encodeStepItems` members a step. */
export function* encodeRecordSteps(record: Readonly<Record<string, unknown>>):
  Generator<void, Uint8Array> {
  const keys = Object.keys(record);
  const parts: string[] = [];
  for (let i = 0; i < keys.length; i += encodeStepItems) {
    const end = Math.min(i + encodeStepItems, keys.length);
    for (let j = i; j < end; j++) {
      const value = stringifyRounded(record[keys[j]!]);
      // JSON.stringify leaves out a member whose value has no JSON (undefined, a function).
      if (value !== undefined) parts.push(`${JSON.stringify(keys[j])}:${value}`);
    }
    yield;
  }
  return encoder.encode(`{${parts.join(',')}}`);
}
