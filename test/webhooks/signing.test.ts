// Signing, ids and the retry schedule: checked against an independent HMAC (WebCrypto), fixed
// vectors and the schedule of docs/decisions.md, including what must be refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  eventIdForSignal, EVENT_ID_PATTERN, newEventId, newSecret, SECRET_PATTERN,
} from '../../actors/webhooks/ids.js';
import { signatureHeader, signPayload } from '../../actors/webhooks/sign.js';
import {
  ATTEMPTS_MAX, nextAttemptAtMs, parseRetryAfterMs, RETRY_AFTER_MS_MAX, RETRY_DELAYS_MS,
} from '../../actors/webhooks/schedule.js';
import { decideAfterAttempt } from '../../actors/webhooks/decide.js';
import { newDelivery, prepareEvent } from '../../actors/webhooks/envelope.js';
import { hmacHex } from './fixtures.js';

test('signPayload equals an independent HMAC-SHA256 keyed by the whole secret', async () => {
  const secret = 'whsec_' + 'A'.repeat(43);
  const body = '{"id":"evt_0123456789abcdef01234567","data":{"é":"ü"}}';
  const mine = signPayload(secret, 1_790_000_000, body);
  assert.is(mine, await hmacHex(secret, '1790000000', body));
  assert.match(mine, /^[0-9a-f]{64}$/);
  // Keyed by the string with its prefix: the base64 part alone gives another signature.
  assert.is.not(mine, await hmacHex('A'.repeat(43), '1790000000', body));
  assert.is.not(mine, signPayload(secret, 1_790_000_001, body));
  assert.throws(() => signPayload(secret, 1.5, body), /timestampSec must be an integer/);
});

test('known vector, computed with openssl', () => {
  // printf '1.{}' | openssl dgst -sha256 -hmac whsec_test
  assert.is(signPayload('whsec_test', 1, '{}'),
    '7500d5d4be4b3ef07af1fe56f7d522d135cdaa7530de557e67cc1049c52de094');
});

test('signature header lists the new secret first, then the old one', () => {
  const h = signatureHeader(['whsec_new', 'whsec_old'], 10, 'b');
  assert.is(h, `v1=${signPayload('whsec_new', 10, 'b')},v1=${signPayload('whsec_old', 10, 'b')}`);
  assert.throws(() => signatureHeader([], 10, 'b'));
});

test('secrets and event ids have their documented shapes', () => {
  const secret = newSecret();
  assert.match(secret, SECRET_PATTERN);
  assert.is(Buffer.from(secret.slice(6), 'base64url').length, 32);
  assert.is.not(newSecret(), secret);
  assert.match(newEventId(), EVENT_ID_PATTERN);
});

test('entry-signal event ids are derived from the signal id', () => {
  const a = eventIdForSignal('BTC-15m-1790000000000-long');
  assert.match(a, EVENT_ID_PATTERN);
  assert.is(eventIdForSignal('BTC-15m-1790000000000-long'), a);
  assert.is.not(eventIdForSignal('BTC-15m-1790000000000-short'), a);
  assert.throws(() => eventIdForSignal(''), /signalId must be a non-empty string/);
});

test('schedule: 8 attempts, waits 5 s .. 10 h, about 27.5 h in all', () => {
  assert.is(ATTEMPTS_MAX, 8);
  let at = 0;
  for (let made = 1; made < ATTEMPTS_MAX; made++) {
    const next = nextAttemptAtMs(made, at, 0, null) as number;
    assert.is(next - at, RETRY_DELAYS_MS[made - 1]);
    at = next;
  }
  assert.is(at, 5_000 + 300_000 + 1_800_000 + 7_200_000 + 18_000_000 + 72_000_000);
  assert.is(nextAttemptAtMs(8, at, 0, null), null);
  assert.throws(() => nextAttemptAtMs(0, 0, 0, null), /attemptsMade/);
  assert.throws(() => nextAttemptAtMs(1, 0, 1, null), /random/);
});

test('jitter lengthens a wait by at most 10 %, never shortens it', () => {
  assert.is(nextAttemptAtMs(2, 0, 0.999_999, null), Math.round(300_000 * 1.0999999));
  assert.ok((nextAttemptAtMs(2, 0, 0.5, null) as number) > 300_000);
});

test('Retry-After is honoured only when later, and capped at a day', () => {
  assert.is(nextAttemptAtMs(1, 0, 0, 60_000), 60_000);
  assert.is(nextAttemptAtMs(1, 0, 0, 1_000), 5_000);
  assert.is(nextAttemptAtMs(1, 0, 0, 10 * RETRY_AFTER_MS_MAX), RETRY_AFTER_MS_MAX);
  assert.is(parseRetryAfterMs('120', null, 0), 120_000);
  assert.is(parseRetryAfterMs(' 7 ', null, 0), 7_000);
  const date = 'Wed, 21 Oct 2026 07:28:00 GMT';
  assert.is(parseRetryAfterMs(date, 'Wed, 21 Oct 2026 07:27:00 GMT', 0), 60_000);
  assert.is(parseRetryAfterMs(date, null, Date.parse(date) - 5_000), 5_000);
  assert.is(parseRetryAfterMs('soon', null, 0), null);
  assert.is(parseRetryAfterMs('-5', null, 0), null);
  assert.is(parseRetryAfterMs(null, null, 0), null);
});

function pending() {
  const { event } = prepareEvent('test', {}, ['we_0000000000000000'], 1_000, 1_000);
  return newDelivery(event, 'we_0000000000000000', 1_000);
}
const sent = { number: 1, startMs: 1_000, uuid: 'u' };

test('decide: 2xx delivered, 3xx and 5xx retried, 410 gone, last failure dead', () => {
  const ok = decideAfterAttempt(pending(), { kind: 'response', status: 204, retryAfter: null,
    date: null }, sent, 1_020, 0);
  assert.equal([ok.effect, ok.next.status, ok.next.attempts], ['success', 'delivered', 1]);
  for (const status of [301, 302, 304, 400, 404, 429, 500, 503]) {
    const d = decideAfterAttempt(pending(), { kind: 'response', status, retryAfter: null,
      date: null }, sent, 1_020, 0);
    assert.equal([d.effect, d.next.status, d.next.nextAttemptAtMs], ['failure', 'pending', 6_000]);
  }
  const gone = decideAfterAttempt(pending(), { kind: 'response', status: 410, retryAfter: null,
    date: null }, sent, 1_020, 0);
  assert.equal([gone.effect, gone.next.status, gone.next.deadReason], ['gone', 'dead', 'gone']);
  const last = decideAfterAttempt({ ...pending(), attempts: 7 }, { kind: 'error',
    reason: 'timeout', message: '' }, { ...sent, number: 8 }, 1_020, 0);
  assert.equal([last.next.status, last.next.deadReason, last.next.lastResult],
    ['dead', 'attempts_exhausted', 'timeout']);
});

test('decide: Retry-After counts on 429 and 503 only, from the response', () => {
  const ra = (status: number) => decideAfterAttempt(pending(), { kind: 'response', status,
    retryAfter: '3600', date: null }, sent, 2_000, 0).next.nextAttemptAtMs;
  assert.is(ra(429), 2_000 + 3_600_000);
  assert.is(ra(503), 2_000 + 3_600_000);
  assert.is(ra(500), 6_000);
});

test.run();
