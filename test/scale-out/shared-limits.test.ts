// Shared limits over a real Redis, two in-process fronts on real ports: the daily quota and the
// burst windows hold exactly across both (also under concurrent requests), with the one-box
// rules (exact Retry-After, 304 free of daily quota, gzip for large answers); keys made through
// one front's table work on the other; frames reject bytes that are not one.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import {
  decodeFrame, encodeBatch, encodeFrame, isNewer, putHeaderMarker, splitBatch,
} from '../../scale-out/frames.js';
import { eventually } from '../helpers/eventually.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { startSharedFront, type SharedFront } from '../helpers/shared-front.js';
import { bearer, get } from '../http/helpers/harness.js';
import { T0 } from '../http/helpers/seed.js';

let redis: RedisServer;
const clock = new ManualClock(T0);
const fronts: SharedFront[] = [];
const limits = suite('shared limits');

limits.before(async () => {
  redis = await startRedisServer();
  fronts.push(await startSharedFront(redis.url, clock),
    await startSharedFront(redis.url, clock));
});

limits.after(async () => {
  for (const front of fronts) await front.close();
  await redis?.stop();
});

limits.before.each(() => clock.advance(61_000));

/**
 * How long a test waits for a change to reach the other front. The promise is 1 s (pub/sub at
 * once, the version poll each second behind it), but a wait is a hang bound, not a timing
 * assertion: a loaded 2-core machine once took longer than 1 s to run the reload.
 */
const seenBoundMs = 5_000;

/** A key made through front `maker`'s table, once the other front's mirror has it. */
async function sharedKey(plan: 'Free' | 'Whale', maker = 0): Promise<Record<string, string>> {
  const { key, record } = await fronts[maker].shared.keys.create({ plan });
  await eventually(() => fronts.every((f) => f.shared.keys.byPrefix(record.prefix)),
    { timeoutMs: seenBoundMs, message: 'the key on every front' });
  return bearer(key);
}

limits('a daily quota of 20 holds exactly under 30 concurrent requests over two fronts',
  async () => {
    const key = await sharedKey('Free');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) =>
      get(`${fronts[i % 2].url}/api/v1/screener`, key)));
    const statuses = answers.map((r) => r.status);
    assert.is(statuses.filter((s) => s === 200).length, 20);
    const refused = answers.filter((r) => r.status === 429);
    assert.is(refused.length, 10);
    for (const r of refused) {
      assert.is(r.json.code, 'quota_exceeded');
      assert.is(r.json.limit, 20);
    }
    const usage = await get(`${fronts[1].url}/api/v1/usage`, key);
    assert.is(usage.json.used, 20);
    assert.is(usage.json.remaining, 0);
  });

limits('burst: the 11th deep view over two fronts is refused with the exact Retry-After',
  async () => {
    const key = await sharedKey('Whale', 1);
    for (let i = 0; i < 10; i++) {
      const r = await get(`${fronts[i % 2].url}/api/v1/deep-view/BTC`, key);
      assert.is(r.status, 200, r.text);
      assert.match(r.headers.get('ratelimit')!, `"burst";r=${9 - i};`);
      clock.advance(1_000);
    }
    for (const front of fronts) {
      const r = await get(`${front.url}/api/v1/deep-view/BTC`, key);
      assert.is(r.status, 429);
      assert.is(r.json.code, 'rate_limited');
      assert.is(r.headers.get('retry-after'), '50');
    }
    clock.advance(50_000);
    assert.is((await get(`${fronts[1].url}/api/v1/deep-view/BTC`, key)).status, 200);
  });

limits('a 304 costs burst but not the day; the keyless quota is per IP across fronts',
  async () => {
    const first = await get(`${fronts[0].url}/api/v1/screener`);
    assert.is(first.status, 200);
    const etag = first.headers.get('etag')!;
    for (let i = 0; i < 5; i++) {
      const r = await get(`${fronts[i % 2].url}/api/v1/screener`, { 'if-none-match': etag });
      assert.is(r.status, 304);
    }
    for (let i = 1; i < 4; i++) {
      assert.is((await get(`${fronts[i % 2].url}/api/v1/screener`)).status, 200);
    }
    const refused = await get(`${fronts[1].url}/api/v1/screener`);
    assert.is(refused.status, 429);
    assert.is(refused.json.used, 4);
  });

limits('a revoked key is refused by the other front', async () => {
  const { key, record } = await fronts[0].shared.keys.create({ plan: 'Whale' });
  await eventually(() => fronts[1].shared.keys.byPrefix(record.prefix),
    { timeoutMs: seenBoundMs });
  assert.is((await get(`${fronts[1].url}/api/v1/pair/BTC`, bearer(key))).status, 200);
  const change = await fronts[0].shared.keys.revoke(record.prefix);
  assert.ok(change.ok && change.changed);
  await eventually(async () =>
    (await get(`${fronts[1].url}/api/v1/pair/BTC`, bearer(key))).status === 401,
  { timeoutMs: seenBoundMs, message: 'revocation seen by the other front' });
  const again = await fronts[1].shared.keys.revoke(record.prefix);
  assert.ok(again.ok && !again.changed, 'revoking twice keeps the first time');
  const unknown = await fronts[1].shared.keys.setPlan('ofk_00000000', 'Pro');
  assert.not.ok(unknown.ok);
});

limits('after the Redis step a large answer goes gzipped, with its own ETag and 304',
  async () => {
    const key = await sharedKey('Whale');
    const url = `${fronts[1].url}/api/v1/screener`;
    // fetch asks for gzip (and inflates the body); identity is asked explicitly.
    const zipped = await get(url, key);
    assert.is(zipped.status, 200);
    assert.is(zipped.headers.get('content-encoding'), 'gzip');
    assert.match(zipped.headers.get('vary') ?? '', /Accept-Encoding/);
    const plain = await get(url, { ...key, 'accept-encoding': 'identity' });
    assert.is(plain.headers.get('content-encoding'), null);
    assert.is(zipped.text, plain.text);
    assert.is(zipped.headers.get('etag'), plain.headers.get('etag')!.slice(0, -1) + '-gz"');
    const again = await get(url, { ...key, 'if-none-match': zipped.headers.get('etag')! });
    assert.is(again.status, 304);
  });

limits('frames: round trip, ordering, and bytes that are not a frame are refused', () => {
  const body = Buffer.from('{"a":1}');
  const stamp = { epochMs: 5, seq: 2 };
  const frame = decodeFrame(encodeFrame({ kind: 'put', name: 'pair/BTC', stamp, sentAtMs: 9,
    updatedAtMs: 7, cadenceMs: 1000, body }));
  assert.is(frame.kind, 'put');
  assert.ok(frame.kind === 'put' && frame.body.equals(body) && frame.cadenceMs === 1000);
  assert.ok(isNewer({ epochMs: 6, seq: 1 }, stamp), 'a restarted ingest wins');
  assert.not.ok(isNewer({ epochMs: 5, seq: 1 }, stamp));
  assert.throws(() => decodeFrame(Buffer.from([0, 0])), /shorter/);
  assert.throws(() => decodeFrame(Buffer.from([0, 0, 0, 200, 1])), /does not fit/);
  const noStamp = Buffer.concat([Buffer.from([0, 0, 0, 2]), Buffer.from('{}')]);
  assert.throws(() => decodeFrame(noStamp), /stamp/);
  const bad = encodeFrame({ kind: 'delete', name: '', stamp } as never);
  assert.throws(() => decodeFrame(bad), /view name/);
  assert.throws(() => decodeFrame(encodeFrame({ kind: 'put', name: 'v', stamp, sentAtMs: 9,
    updatedAtMs: 7, cadenceMs: 1000, etag: 7 as never, body }, true)), /meta/);
});

limits('put frames: a binary header read back field for field; a JSON one (older ingest) too',
  () => {
    const body = Buffer.from('{"a":1}');
    const put = { kind: 'put', name: 'wallets/0xé', stamp: { epochMs: 1_764_000_000_000, seq: 7 },
      sentAtMs: 1_764_000_000_123.456, updatedAtMs: 1_764_000_000_000, cadenceMs: 1000,
      etag: '"abc-_1"', body } as const;
    const binary = encodeFrame(put);
    assert.is(binary[4], putHeaderMarker);
    assert.equal(decodeFrame(binary), put);
    assert.equal(decodeFrame(encodeFrame(put, true)), put);
    const noEtag = decodeFrame(encodeFrame({ ...put, etag: undefined }));
    assert.ok(noEtag.kind === 'put' && noEtag.etag === undefined && noEtag.body.equals(body));
    // A header whose lengths do not add up, or cut short, is refused.
    const wrong = Buffer.from(binary);
    wrong.writeUInt16BE(60, 4 + 41);
    assert.throws(() => decodeFrame(wrong), /length|name/);
    const headerBytes = binary.readUInt32BE(0);
    const cut = Buffer.concat([Buffer.from([0, 0, 0, 20]), binary.subarray(4, 24)]);
    assert.throws(() => decodeFrame(cut), /short/);
    assert.ok(headerBytes < 100);
  });

limits('frame batches: one turn of frames in one message, a cut batch refused', () => {
  const stamp = { epochMs: 5, seq: 2 };
  const one = encodeFrame({ kind: 'put', name: 'pair/BTC', stamp, sentAtMs: 9, updatedAtMs: 7,
    cadenceMs: 1000, etag: '"abc"', body: Buffer.from('{"a":1}') });
  const two = encodeFrame({ kind: 'delete', name: 'pair/ETH', stamp: { epochMs: 5, seq: 3 } });
  const batch = encodeBatch([one, two], 1234.5);
  const split = splitBatch(batch);
  assert.is(split.sentAtMs, 1234.5);
  const frames = split.frames.map(decodeFrame);
  assert.equal(frames.map((f) => f.kind), ['put', 'delete']);
  assert.ok(frames[0]!.kind === 'put' && frames[0]!.etag === '"abc"');
  assert.equal(splitBatch(encodeBatch([], 1)).frames, []);
  assert.throws(() => splitBatch(Buffer.alloc(7)), /time stamp/);
  assert.throws(() => splitBatch(batch.subarray(0, batch.length - 1)), /cut inside a frame/);
  assert.throws(() => splitBatch(Buffer.concat([batch, Buffer.from([0, 0])])), /length prefix/);
});

limits.run();
