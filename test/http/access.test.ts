// createAccessControl with a manual clock: credentials, burst windows, daily quota across Rome
// midnights (both DST changes) and the grandfathering end, limits off.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { resolveConfig } from '../../core/config.js';
import { createAccessControl } from '../../http/access.js';
import type { AccessControl, Identity, Outcome, Problem } from '../../http/access-types.js';
import { keyFor, MemoryKeys, MemoryUsage } from './helpers/seed.js';

const at = (iso: string) => Date.parse(iso);

function setup(nowIso = '2026-11-22T10:00:00Z', config = {}) {
  const clock = new ManualClock(at(nowIso));
  const keys = new MemoryKeys();
  const usage = new MemoryUsage();
  const access = createAccessControl({
    config: resolveConfig({ host: '127.0.0.1', port: 0, ...config }), clock, keys, usage,
  });
  return { clock, keys, usage, access };
}

const none = { authorization: undefined, xApiKey: undefined, queryKey: undefined };
function problemOf<T>(outcome: Outcome<T>): Problem {
  if (outcome.ok) throw new Error('expected a problem, was ok');
  return outcome.problem;
}
function identityOf(access: AccessControl, key: string, ip = '10.0.0.1'): Identity {
  const found = access.identify({ ...none, authorization: `Bearer ${key}` }, ip);
  if (!found.ok) throw new Error(found.problem.detail);
  return found.value;
}
const retryAfter = (p: Problem) => Number(p.headers?.find(([h]) => h === 'Retry-After')?.[1]);

const credentials = suite('credentials');

credentials('no credential gives the IP identity', () => {
  const { access } = setup();
  assert.equal(access.identify(none, '1.2.3.4'),
    { ok: true, value: { kind: 'ip', ip: '1.2.3.4' } });
});

credentials('Bearer > x-api-key > api_key; an invalid first spelling never falls back', () => {
  const { access, keys } = setup();
  keys.add(keyFor(1), 'Pro');
  keys.add(keyFor(2), 'Whale');
  const both = access.identify({ authorization: `Bearer ${keyFor(1)}`, xApiKey: keyFor(2),
    queryKey: keyFor(2) }, 'ip');
  assert.is(both.ok && both.value.kind === 'key' && both.value.plan, 'Pro');
  const header = access.identify({ ...none, xApiKey: keyFor(2), queryKey: keyFor(1) }, 'ip');
  assert.is(header.ok && header.value.kind === 'key' && header.value.plan, 'Whale');
  const bad = access.identify({ authorization: 'Bearer nope', xApiKey: keyFor(2),
    queryKey: undefined }, 'ip');
  assert.is(problemOf(bad).status, 401);
  assert.is(problemOf(bad).code, 'invalid_key');
  assert.match(problemOf(bad).detail, /ofk_ \+ 32 lower-case hex/);
});

credentials('format is checked: wrong length, upper case, wrong scheme, unknown, revoked', () => {
  const { access, keys } = setup();
  keys.add(keyFor(3), 'Pro', { revokedAtMs: at('2026-11-01T00:00:00Z') });
  const cases = [
    { ...none, xApiKey: keyFor(1).slice(0, -1) },
    { ...none, xApiKey: keyFor(1).toUpperCase() },
    { ...none, authorization: `Basic ${keyFor(1)}` },
    { ...none, authorization: 'Bearer' },
    { ...none, queryKey: 'ofk_' + 'g'.repeat(32) },
    { ...none, xApiKey: keyFor(99) },
    { ...none, xApiKey: keyFor(3) },
  ];
  for (const c of cases) assert.is(problemOf(access.identify(c, 'ip')).status, 401);
  assert.match(problemOf(access.identify(cases[6]!, 'ip')).detail, /revoked/);
  assert.match(problemOf(access.identify(cases[5]!, 'ip')).detail, /unknown key/);
});

credentials('a refilled client: identities made once, its address read per request', () => {
  const { access, keys } = setup();
  keys.add(keyFor(1), 'Pro');
  const client = { ip: '10.0.0.1', refilled: true };
  const bearerOf = { ...none, authorization: `Bearer ${keyFor(1)}` };
  const first = access.identify(bearerOf, client);
  assert.ok(first.ok && first.value.kind === 'key');
  assert.is(access.identify(bearerOf, client), first, 'the same identity again');
  client.ip = '10.0.0.2';
  assert.is(first.ok && first.value.ip, '10.0.0.2', 'the current request\'s address');
  const keyless = access.identify(none, client);
  assert.is(access.identify(none, client), keyless);
  assert.is(keyless.ok && keyless.value.kind === 'ip' && keyless.value.ip, '10.0.0.2');
  // A replaced record (a new plan, a revocation) is a new identity, or a refusal.
  keys.add(keyFor(1), 'Whale');
  const upgraded = access.identify(bearerOf, client);
  assert.is(upgraded.ok && upgraded.value.kind === 'key' && upgraded.value.plan, 'Whale');
  keys.add(keyFor(1), 'Whale', { revokedAtMs: at('2026-11-22T09:00:00Z') });
  assert.match(problemOf(access.identify(bearerOf, client)).detail, /revoked/);
  // A client that is not refilled gets an identity of its own each time.
  const once = { ip: '10.0.0.3' };
  assert.is.not(access.identify(none, once), access.identify(none, once));
});

credentials('checkPlan: keyless 401 where a key is needed, 403 names the tier', () => {
  const { access, keys } = setup();
  keys.add(keyFor(1), 'Trader');
  const ip: Identity = { kind: 'ip', ip: '1.1.1.1' };
  assert.ok(access.checkPlan(ip, 'screener').ok);
  assert.is(problemOf(access.checkPlan(ip, 'signals')).status, 401);
  const trader = identityOf(access, keyFor(1));
  assert.ok(access.checkPlan(trader, 'signals').ok);
  const p = problemOf(access.checkPlan(trader, 'deep-view'));
  assert.is(p.status, 403);
  assert.equal(p.extensions, { requiredPlan: 'Whale', plan: 'Trader' });
});

credentials.run();

const burst = suite('burst');

burst('60 per rolling minute; Retry-After counts until the oldest leaves, never early', () => {
  const { access, clock } = setup();
  const who: Identity = { kind: 'ip', ip: '1.1.1.1' };
  for (let i = 0; i < 60; i++) {
    assert.ok(access.checkBurst(who, 'v1').ok, `request ${i}`);
    clock.advance(500);
  }
  // The first request was 30 s ago: it leaves the window in exactly 30 s.
  const p = problemOf(access.checkBurst(who, 'v1'));
  assert.is(p.status, 429);
  assert.is(p.code, 'rate_limited');
  assert.equal(p.extensions, { scope: 'v1', limit: 60, windowSeconds: 60, retryAfterSeconds: 30 });
  assert.is(retryAfter(p), 30);
  clock.advance(30_000 - 1);
  assert.not.ok(access.checkBurst(who, 'v1').ok, 'one ms early is still refused');
  clock.advance(1);
  assert.ok(access.checkBurst(who, 'v1').ok, 'on time it is accepted');
  assert.not.ok(access.checkBurst(who, 'v1').ok, 'and the next one waits for the second');
});

burst('Retry-After rounds up partial seconds', () => {
  const { access, clock } = setup();
  const who: Identity = { kind: 'ip', ip: '1.1.1.2' };
  for (let i = 0; i < 10; i++) assert.ok(access.checkBurst(who, 'deep-view').ok);
  clock.advance(100);
  const p = problemOf(access.checkBurst(who, 'deep-view'));
  assert.is(retryAfter(p), 60, '59.9 s rounds up to 60');
  assert.is((p.extensions as { limit: number }).limit, 10);
});

burst('scopes and identities are separate: IP vs IP + key prefix, deep-view vs cvd vs v1', () => {
  const { access, keys } = setup();
  keys.add(keyFor(1), 'Whale');
  keys.add(keyFor(2), 'Whale');
  const ip: Identity = { kind: 'ip', ip: '10.0.0.1' };
  const a = identityOf(access, keyFor(1));
  const b = identityOf(access, keyFor(2));
  for (let i = 0; i < 10; i++) assert.ok(access.checkBurst(a, 'deep-view').ok);
  assert.not.ok(access.checkBurst(a, 'deep-view').ok);
  assert.ok(access.checkBurst(a, 'cvd').ok);
  assert.ok(access.checkBurst(a, 'v1').ok);
  assert.ok(access.checkBurst(b, 'deep-view').ok);
  assert.ok(access.checkBurst(ip, 'deep-view').ok);
});

burst('limits off: no burst guard, no daily quota, no RateLimit headers', () => {
  const { access, keys } = setup(undefined, { limitsEnabled: false });
  keys.add(keyFor(1), 'Free');
  const who = identityOf(access, keyFor(1));
  for (let i = 0; i < 100; i++) {
    assert.ok(access.checkBurst(who, 'deep-view').ok);
    assert.ok(access.consumeDaily(who).ok);
  }
  assert.equal(access.rateLimitHeaders(who, 'v1'), []);
});

burst.run();

const daily = suite('daily');

daily('keyless: the configured per-IP limit, then 429 counting to Rome midnight', () => {
  const { access, usage } = setup('2026-11-22T22:59:00Z', { keylessDailyLimit: 3 });
  const who: Identity = { kind: 'ip', ip: '5.5.5.5' };
  for (let i = 0; i < 3; i++) assert.ok(access.consumeDaily(who).ok);
  const p = problemOf(access.consumeDaily(who));
  assert.is(p.status, 429);
  assert.is(p.code, 'quota_exceeded');
  assert.equal(p.extensions, { limit: 3, used: 3, resetsAt: '2026-11-22T23:00:00.000Z' });
  assert.is(retryAfter(p), 60);
  assert.is(usage.get('ip:5.5.5.5', '2026-11-22'), 3);
});

daily('the counter resets at Rome midnight, not UTC midnight', () => {
  const { access, clock } = setup('2026-11-22T12:00:00Z', { keylessDailyLimit: 1 });
  const who: Identity = { kind: 'ip', ip: '5.5.5.6' };
  assert.ok(access.consumeDaily(who).ok);
  clock.set(at('2026-11-22T22:59:59.999Z'));
  assert.not.ok(access.consumeDaily(who).ok);
  clock.set(at('2026-11-22T23:00:00.000Z'));
  assert.ok(access.consumeDaily(who).ok, 'midnight in Rome is 23:00 UTC in winter');
});

for (const [name, nowIso, endIso, hours] of [
  ['spring forward', '2026-03-29T01:30:00Z', '2026-03-29T22:00:00.000Z', 23],
  ['fall back', '2026-10-25T01:30:00Z', '2026-10-25T23:00:00.000Z', 25],
] as const) {
  daily(`DST ${name}: a ${hours}-hour day, Retry-After to the real midnight`, () => {
    const { access, clock } = setup(nowIso, { keylessDailyLimit: 1 });
    const who: Identity = { kind: 'ip', ip: '6.6.6.6' };
    assert.ok(access.consumeDaily(who).ok);
    const p = problemOf(access.consumeDaily(who));
    assert.is((p.extensions as { resetsAt: string }).resetsAt, endIso);
    assert.is(retryAfter(p), Math.ceil((at(endIso) - clock.nowMs()) / 1000));
    clock.set(at(endIso) - 1);
    assert.not.ok(access.consumeDaily(who).ok);
    clock.set(at(endIso));
    assert.ok(access.consumeDaily(who).ok);
  });
}

daily('grandfathered Whale: 50,000 until 2026-11-07 Rome, then 2,000', () => {
  const { access, keys, usage, clock } = setup('2026-11-06T22:30:00Z');
  keys.add(keyFor(7), 'Whale', { subscriptionStartMs: at('2026-08-01T00:00:00Z') });
  keys.add(keyFor(8), 'Whale', { subscriptionStartMs: at('2026-09-07T22:00:00Z') });
  const old = identityOf(access, keyFor(7));
  const fresh = identityOf(access, keyFor(8));
  assert.equal(access.usage(old), {
    plan: 'Whale', limit: 50_000, used: 0, remaining: 50_000,
    resetsAt: '2026-11-06T23:00:00.000Z', timeZone: 'Europe/Rome', grandfathered: true,
    grandfatheredUntil: '2026-11-06T23:00:00.000Z',
  });
  assert.is(access.usage(fresh).limit, 2_000);
  for (let i = 0; i < 2_500; i++) usage.increment(`key:${keyFor(7).slice(0, 12)}`, '2026-11-06');
  assert.ok(access.consumeDaily(old).ok, '2,501st request on a grandfathered day');
  clock.set(at('2026-11-06T23:00:00Z'));
  const after = access.usage(old);
  assert.is(after.limit, 2_000);
  assert.is(after.grandfathered, false);
  assert.is(after.grandfatheredUntil, null);
  assert.is(after.used, 0, 'a new Rome day');
});

daily('RateLimit headers follow the IETF draft shape', () => {
  const { access, keys } = setup('2026-11-22T22:00:00Z');
  keys.add(keyFor(1), 'Trader');
  const who = identityOf(access, keyFor(1));
  access.checkBurst(who, 'v1');
  access.consumeDaily(who);
  assert.equal(access.rateLimitHeaders(who, 'v1'), [
    ['RateLimit-Policy', '"burst";q=60;w=60, "daily";q=2000;w=86400'],
    ['RateLimit', '"burst";r=59;t=60, "daily";r=1999;t=3600'],
  ]);
});

daily.run();
