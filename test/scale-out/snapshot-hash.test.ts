// The snapshot hash written less often (docs/scale-out.md, "How snapshots travel"): ingest
// writes each view's latest frame when a front asks (and every few hundred ms; an hour here, so
// only an ask writes it). A front started while views change rarely still gets every view, a
// front keeps every view across a Redis restart, and a front whose ask goes unanswered (no
// ingest) serves what the hash holds, stale, until ingest answers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { strongEtag } from '../../core/etag.js';
import { redisNames } from '../../scale-out/redis-link.js';
import { eventually } from '../helpers/eventually.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { HandoverRig, holdsAll, type Ingest } from '../helpers/snapshot-handover.js';

let redis: RedisServer;
let rig: HandoverRig;
/** Longer than any test: the hash is written only when a front asks. */
const hashWriteMs = 3_600_000;

test.before(async () => {
  redis = await startRedisServer();
  rig = new HandoverRig(redis, { hashWriteMs });
});

test.after(async () => {
  await rig?.close();
  await redis?.stop();
});

const link = () => rig.link();
const ingest = () => rig.ingest();
const front = (askTimeoutMs?: number, url?: string) => rig.front(askTimeoutMs, url);

function put(sink: Ingest['sink'], name: string, round: number): void {
  const body = Buffer.from(JSON.stringify({ name, round, pad: 'x'.repeat(500) }));
  sink.put(name, body, { version: round, updatedAtMs: 1_764_000_000_000 + round,
    cadenceMs: 1000, etag: strongEtag(body) });
}

async function hashFields(): Promise<number> {
  return (await link()).command.hlen(redisNames.snapshots);
}

test('a front started while views change rarely gets every view: its ask writes the hash',
  async () => {
    const { sink, store, publisher } = await ingest();
    const names = Array.from({ length: 200 }, (_, i) => `pair/RARE${i}`);
    for (const name of names) put(sink, name, 1);
    put(sink, 'pair/RARE0', 2);
    sink.delete('pair/RARE1');
    await new Promise((resolve) => setImmediate(resolve));
    assert.is(await hashFields(), 0, 'nothing written before an ask');
    const late = await front();
    assert.ok(holdsAll(late, { store, sink, publisher }, names.filter((n) => n !== 'pair/RARE1')),
      'every view from the hash');
    assert.is(late.store.get('pair/RARE1'), undefined, 'the deleted view is not in the hash');
    assert.is(await hashFields(), names.length - 1);
    // Later puts reach it as messages.
    put(sink, 'pair/RARE5', 3);
    await eventually(() => late.store.get('pair/RARE5')?.etag === store.get('pair/RARE5')!.etag,
      { message: 'a later put by message' });
  });

test('Redis restarted empty: listening and new fronts get every view back', async () => {
  const from = await ingest();
  const names = Array.from({ length: 50 }, (_, i) => `pair/BACK${i}`);
  for (const name of names) put(from.sink, name, 1);
  const listening = await front();
  assert.ok(holdsAll(listening, from, names));
  await redis.stop();
  // Put while Redis is away: the publisher re-sends every view when it is back.
  put(from.sink, 'pair/BACK0', 2);
  await redis.start();
  await eventually(() => holdsAll(listening, from, names),
    { timeoutMs: 10_000, message: 'the listening front caught up' });
  const late = await front();
  await eventually(() => holdsAll(late, from, names),
    { timeoutMs: 10_000, message: 'a front started after the restart has every view' });
});

test('an ask unanswered (no ingest): the front serves the hash as it is, stale, then catches up',
  async () => {
    const before = await ingest();
    const names = Array.from({ length: 20 }, (_, i) => `pair/GONE${i}`);
    for (const name of names) put(before.sink, name, 1);
    await front();
    // Every ingest gone: nothing answers the next front's ask.
    for (const publisher of rig.publishers) publisher.stop();
    const alone = await front(200);
    assert.ok(holdsAll(alone, before, names), 'what the hash held');
    assert.not.ok(alone.subscriber.fresh(), 'no beat from ingest: stale');
    // An ingest again: its beat makes the front fresh, its views reach it.
    const after = await ingest();
    put(after.sink, 'pair/GONE0', 5);
    await eventually(() => alone.subscriber.fresh(), { message: 'fresh again' });
    await eventually(() => alone.store.get('pair/GONE0')?.etag === after.store.get('pair/GONE0')!
      .etag, { message: 'the new ingest\'s view' });
  });

test('a view deleted on ingest while a front was away from Redis is gone from it once back',
  async () => {
    const from = await ingest();
    const names = Array.from({ length: 10 }, (_, i) => `pair/AWAY${i}`);
    for (const name of names) put(from.sink, name, 1);
    const proxy = await rig.proxy();
    const away = await front(1_000, proxy.url);
    assert.ok(holdsAll(away, from, names));
    proxy.cut();
    await eventually(() => !away.subscriber.fresh(), { message: 'the front lost Redis' });
    // Meanwhile on ingest: one view deleted, one changed. No message reaches the front.
    from.sink.delete('pair/AWAY3');
    put(from.sink, 'pair/AWAY4', 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(away.store.get('pair/AWAY3') !== undefined, 'still held while away');
    proxy.restore();
    await eventually(() => away.store.get('pair/AWAY4')?.etag === from.store.get('pair/AWAY4')!
      .etag && away.subscriber.fresh(), { timeoutMs: 10_000, message: 'caught up once back' });
    assert.is(away.store.get('pair/AWAY3'), undefined, 'the deleted view is gone');
    assert.ok(holdsAll(away, from, names.filter((n) => n !== 'pair/AWAY3')), 'the others held');
  });

test.run();
