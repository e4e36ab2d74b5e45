// Patches on the wire (docs/scale-out.md, "Patches"): ingest sends a view whole once (its
// keyframe), then as patches of it; every front rebuilds exactly ingest's bytes. A front that
// joins, or comes back from a cut, gets every view whole again; the hash holds whole views; a
// patch whose keyframe a front lacks is dropped, never applied to another base.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { strongEtag } from '../../core/etag.js';
import { redisNames } from '../../scale-out/redis-link.js';
import { decodeFrame, encodeBatch, encodeFrame, splitBatch } from '../../scale-out/frames.js';
import { eventually } from '../helpers/eventually.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import {
  HandoverRig, holdsAll, type Front, type Ingest,
} from '../helpers/snapshot-handover.js';

let redis: RedisServer;
let rig: HandoverRig;

test.before(async () => {
  redis = await startRedisServer();
  rig = new HandoverRig(redis, { hashWriteMs: 3_600_000 });
});

test.after(async () => {
  await rig?.close();
  await redis?.stop();
});

const names = Array.from({ length: 20 }, (_, i) => `deep-view/P${i}`);

/** A deep view of ~20 KB: a long history that a cadence leaves alone, numbers it changes. */
function deepView(name: string, round: number): Buffer {
  return Buffer.from(JSON.stringify({
    symbol: name, cvd: 311_535_142.9 + round * 17.25, obi: Math.sin(round),
    cvdHistory: Array.from({ length: 250 }, (_, i) => ({
      time: new Date(Date.UTC(2026, 10, 26) + i * 300_000).toISOString(), cvd: 6_717_191 + i,
      delta: i })),
    asOf: new Date(Date.UTC(2026, 10, 26, 12) + round * 1_000).toISOString(),
  }));
}

function putRound(from: Ingest, round: number): void {
  for (const name of names) {
    const body = deepView(name, round);
    from.sink.put(name, body, { version: round, updatedAtMs: 1_764_000_000_000 + round * 1000,
      cadenceMs: 1000, etag: strongEtag(body) });
  }
}

/** Every view on the front is ingest's, byte for byte and with its ETag. */
async function sameBytes(front: Front, from: Ingest, message: string): Promise<void> {
  await eventually(() => holdsAll(front, from, names), { timeoutMs: 5_000, message });
  for (const name of names) {
    assert.ok(front.store.get(name)!.body.equals(from.store.get(name)!.body), `${name} bytes`);
  }
}

/** An ingest and a front that holds `rounds` rounds of the views, byte for byte. */
async function frontAfter(rounds: number): Promise<{ from: Ingest; front: Front }> {
  const from = await rig.ingest();
  const front = await rig.front();
  for (let round = 1; round <= rounds; round++) putRound(from, round);
  await sameBytes(front, from, `the front after ${rounds} rounds`);
  return { from, front };
}

test('views put every cadence reach two fronts as patches, byte for byte, in a tenth of the bytes',
  async () => {
    const from = await rig.ingest();
    const [a, b] = [await rig.front(), await rig.front()];
    let channelBytes = 0;
    (await rig.link()).listen(redisNames.snapshotChannel, (m) => { channelBytes += m.length; });
    await eventually(async () => (await (await rig.link()).command.pubsub('NUMSUB',
      redisNames.snapshotChannel))[1] === 3, { message: 'the counting listener subscribed' });
    putRound(from, 1);
    await sameBytes(a!, from, 'round 1 on front a');
    await sameBytes(b!, from, 'round 1 on front b');
    const wholeBytes = channelBytes;
    assert.ok(wholeBytes > names.length * 15_000, `${wholeBytes} bytes sent whole`);
    const patchesBefore = from.publisher.patchesSent;
    for (let round = 2; round <= 6; round++) {
      putRound(from, round);
      await sameBytes(a!, from, `round ${round} on front a`);
      await sameBytes(b!, from, `round ${round} on front b`);
    }
    assert.is(from.publisher.patchesSent - patchesBefore, 5 * names.length, 'every put a patch');
    const patchBytes = channelBytes - wholeBytes;
    assert.ok(patchBytes < 5 * wholeBytes / 10, `${patchBytes} bytes for five rounds of patches`);
    assert.is(a!.subscriber.patchesWithoutBase + b!.subscriber.patchesWithoutBase, 0);
  });

test('a front that joins holds every view, and ingest sends every view whole next', async () => {
  const { from, front: early } = await frontAfter(2);
  const late = await rig.front();
  await sameBytes(late, from, 'the late front, from the hash');
  const wholes = from.publisher.wholesSent;
  putRound(from, 3);
  assert.is(from.publisher.wholesSent - wholes, names.length, 'whole after the ask');
  await sameBytes(late, from, 'round 3 on the late front');
  await sameBytes(early, from, 'round 3 on the early front');
  putRound(from, 4);
  await sameBytes(late, from, 'round 4 (patches) on the late front');
});

test('the hash holds each view whole: a front that loads only the hash serves ingest\'s bytes',
  async () => {
    const { from } = await frontAfter(4);
    from.publisher.writeHash();
    const link = await rig.link();
    await eventually(async () => {
      const frame = decodeFrame((await link.command.hgetBuffer(redisNames.snapshots, names[0]!))!);
      return frame.kind === 'put' && frame.patch === undefined &&
        frame.body.equals(from.store.get(names[0]!)!.body);
    }, { message: 'the hash holds round 4 whole' });
    // No ingest answers the next front's ask: it serves what the hash holds.
    from.publisher.stop();
    const alone = await rig.front(200);
    await sameBytes(alone, from, 'from the hash alone');
    assert.is(alone.subscriber.patchesApplied, 0, 'whole views, no patches');
  });

test('a front cut from Redis while views change is back byte for byte', async () => {
  const from = await rig.ingest();
  const proxy = await rig.proxy();
  const away = await rig.front(1_000, proxy.url);
  putRound(from, 1);
  putRound(from, 2);
  await sameBytes(away, from, 'before the cut');
  proxy.cut();
  await eventually(() => !away.subscriber.fresh(), { message: 'the front lost Redis' });
  putRound(from, 3);
  putRound(from, 4);
  proxy.restore();
  await eventually(() => away.subscriber.fresh(), { timeoutMs: 10_000, message: 'back' });
  await sameBytes(away, from, 'caught up');
  putRound(from, 5);
  putRound(from, 6);
  await sameBytes(away, from, 'later rounds');
});

test('a patch whose keyframe the front lacks is dropped, not applied to another base', async () => {
  const { front } = await frontAfter(2);
  const held = front.store.get(names[0]!)!;
  const known = front.subscriber.patchesWithoutBase;
  const stamp = { epochMs: Date.now() + 60_000, seq: 1 }; // a newer ingest's, with no keyframe
  const frame = encodeFrame({ kind: 'put', name: names[0]!, stamp, sentAtMs: Date.now(),
    updatedAtMs: 1, cadenceMs: 1000, etag: '"x"', patch: { baseSeq: 0, targetBytes: 5 },
    body: Buffer.from([0, 0, 0, 5, 104, 101, 108, 108, 111, 0, 0, 0, 0, 0, 0, 0, 0]) });
  assert.is(splitBatch(encodeBatch([frame], 0)).frames.length, 1);
  await (await rig.link()).command.publish(redisNames.snapshotChannel, encodeBatch([frame], 0));
  await eventually(() => front.subscriber.patchesWithoutBase === known + 1,
    { message: 'the patch counted as dropped' });
  assert.is(front.store.get(names[0]!), held, 'the view is as it was');
});

test.run();
