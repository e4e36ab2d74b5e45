// Payload builders shared by the handlers: a snapshot view as is, and small JSON answers.
import type { Outcome, Problem } from '../access-types.js';
import { bytesOf } from '../bytes.js';
import { withPrebuiltHeaders, type Payload } from '../respond.js';
import type { ViewEntry } from '../snapshots.js';

export const JSON_TYPE = 'application/json';
export const CSV_TYPE = 'text/csv; charset=utf-8';

// One payload per published entry: a polled view is answered many times per version, so its
// header block is joined once. Entries are replaced, never mutated, on publish; the weak map
// lets a replaced entry's payload go with it.
const feedPayloads = new WeakMap<ViewEntry, Payload>();

/** A stored view served as its bytes with its validators (nothing is serialized here). */
export function feedPayload(entry: ViewEntry): Payload {
  let payload = feedPayloads.get(entry);
  if (payload === undefined) {
    payload = withPrebuiltHeaders({
      contentType: JSON_TYPE,
      body: bytesOf(entry.body),
      cacheControl: entry.cacheControl,
      etag: entry.etag,
      lastModified: entry.lastModified,
      cadence: entry.cadenceHeader,
    });
    feedPayloads.set(entry, payload);
  }
  return payload;
}

const feedOutcomes = new WeakMap<ViewEntry, Outcome<Payload>>();

/** feedPayload as a handler's answer, made once per entry: a poll builds no object. */
export function feedOutcome(entry: ViewEntry): Outcome<Payload> {
  let outcome = feedOutcomes.get(entry);
  if (outcome === undefined) feedOutcomes.set(entry, outcome = ok(feedPayload(entry)));
  return outcome;
}

const payloadOutcomes = new WeakMap<Payload, Outcome<Payload>>();

/** A cached payload as a handler's answer, made once per payload: a hit builds no object. */
export function payloadOutcome(payload: Payload): Outcome<Payload> {
  let outcome = payloadOutcomes.get(payload);
  if (outcome === undefined) payloadOutcomes.set(payload, outcome = ok(payload));
  return outcome;
}

/** A small answer computed per request (usage, health): never cached by clients. */
export function jsonPayload(value: unknown, status = 200): Payload {
  return { contentType: JSON_TYPE, body: JSON.stringify(value), cacheControl: 'no-store', status };
}

export function ok(value: Payload): Outcome<Payload> {
  return { ok: true, value };
}

export function fail(problem: Problem): Outcome<Payload> {
  return { ok: false, problem };
}
