// The snapshot hand-over on a real redis-server, without the rest of the service: ingest's
// publisher and two fronts' subscribers in one process, each on its own connections. Batches
// split at batchBytesMax and merged within a turn, the same bytes and ETag on both fronts, the
// hash holding each view's last word, a front that missed the messages catching up from the
// hash, and no UTF-8 decoding of messages (docs/scale-out.md; snapshot-hash.test.ts has more of
// the hash).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Redis } from 'ioredis';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { strongEtag } from '../../core/etag.js';
import { SnapshotStore } from '../../http/snapshots.js';
import { redisNames, type RedisLink } from '../../scale-out/redis-link.js';
import { SnapshotPublisher, batchBytesMax } from '../../scale-out/publisher.js';
import { SnapshotSubscriber } from '../../scale-out/subscriber.js';
import { decodeFrame, splitBatch } from '../../scale-out/frames.js';
import { openSharedState } from '../../scale-out/shared-state.js';
import { eventually } from '../helpers/eventually.js';
import { readyLink, startRedisServer, type RedisServer } from '../helpers/redis-server.js';

let redis: RedisServer;
const links: RedisLink[] = [];
const clients: Redis[] = [];
const publishers: SnapshotPublisher[] = [];

test.before(async () => {
  redis = await startRedisServer();
});

test.after(async () => {
  for (const publisher of publishers) publisher.stop();
  for (const link of links) await link.close();
  for (const client of clients) client.disconnect();
  await redis?.stop();
});

const link = (): Promise<RedisLink> => readyLink(redis.url, links);

/** Ingest's publisher, answering fronts' asks; the hash is written only when asked (or by the
 *  test): an hour between timed writes. The earlier tests' publishers stop first: a deployment
 *  has one ingest, and any publisher still listening would answer a front's ask too (a front
 *  then loads the hash before this one wrote its views). */
/** `batchWaitMs`: Infinity (one message a turn, whatever the turn takes) unless a test says. */
async function publisher(batchWaitMs = Infinity): Promise<SnapshotPublisher> {
  for (const earlier of publishers) earlier.stop();
  const made = new SnapshotPublisher(await link(), silentLogger,
    { hashWriteMs: 3_600_000, batchWaitMs });
  publishers.push(made);
  made.start();
  return made;
}

/** The turn's batch published (a microtask) and its views noted for the hash. */
const turnEnd = () => new Promise((resolve) => setImmediate(resolve));

interface Front { readonly store: SnapshotStore; readonly subscriber: SnapshotSubscriber }

async function front(): Promise<Front> {
  const store = new SnapshotStore();
  const subscriber = new SnapshotSubscriber(await link(), store, systemClock, silentLogger);
  subscriber.start();
  await eventually(() => subscriber.loaded(), { message: 'front loaded' });
  return { store, subscriber };
}

/** Every message of views on the snapshot channel (not ingest's beats), as its frames' count
 *  and its size. */
async function tap(): Promise<{ frames: number; bytes: number }[]> {
  const client = new Redis(redis.url, { maxRetriesPerRequest: 0 });
  clients.push(client);
  const seen: { frames: number; bytes: number }[] = [];
  client.on('messageBuffer', (_channel: Buffer, message: Buffer) => {
    const { frames } = splitBatch(message);
    if (frames.some((frame) => decodeFrame(frame).kind === 'beat')) return;
    seen.push({ frames: frames.length, bytes: message.length });
  });
  await client.subscribe(redisNames.snapshotChannel);
  return seen;
}

function body(name: string, round: number, bytes: number): Buffer {
  return Buffer.from(JSON.stringify({ name, round, pad: 'x'.repeat(bytes) }));
}

const meta = (round: number, etag?: string) =>
  ({ version: round, updatedAtMs: 1_764_000_000_000 + round, cadenceMs: 1000, etag });

test('a big turn leaves in several batches; both fronts hold the same bytes and ETag', async () => {
  const fronts = [await front(), await front()];
  const messages = await tap();
  const ingest = new SnapshotStore();
  const sink = (await publisher()).sink(ingest);
  const names = Array.from({ length: 300 }, (_, i) => `pair/SYM${i}`);
  // 300 views of ~2 KB in one turn: about ten batches of at most batchBytesMax plus one view.
  for (const name of names) {
    const bytes = body(name, 1, 2_000);
    sink.put(name, bytes, meta(1, strongEtag(bytes)));
  }
  for (const { store } of fronts) {
    await eventually(() => names.every((name) => store.get(name)?.version !== undefined),
      { message: 'every view on the front' });
  }
  await eventually(() => messages.reduce((sum, m) => sum + m.frames, 0) === names.length,
    { message: 'every frame published' });
  assert.ok(messages.length >= 8, `${messages.length} messages`);
  for (const message of messages) assert.ok(message.bytes < batchBytesMax + 4_096);
  for (const name of names) {
    const sent = ingest.get(name)!;
    for (const { store } of fronts) {
      const got = store.get(name)!;
      assert.ok(got.body.equals(sent.body), name);
      assert.is(got.etag, sent.etag);
      assert.is(got.etag, strongEtag(got.body));
      assert.is(got.lastModified, sent.lastModified);
      assert.is(got.cacheControl, sent.cacheControl);
    }
  }
});

test('small views put in one turn leave as one message, the last word of each view', async () => {
  const { store } = await front();
  const messages = await tap();
  const published = await publisher();
  const sink = published.sink(new SnapshotStore());
  sink.put('pair/A', body('pair/A', 1, 10), meta(1));
  sink.put('pair/B', body('pair/B', 1, 10), meta(1));
  sink.put('pair/A', body('pair/A', 2, 10), meta(2));
  sink.put('pair/C', body('pair/C', 1, 10), meta(1));
  sink.delete('pair/C');
  await eventually(() => store.get('pair/A')?.updatedAtMs === meta(2).updatedAtMs,
    { message: 'the second put of pair/A on the front' });
  await eventually(() => messages.length === 1, { message: 'one message' });
  assert.is(messages[0]!.frames, 5);
  assert.ok(store.get('pair/A')!.body.equals(body('pair/A', 2, 10)));
  assert.ok(store.get('pair/B')!.body.equals(body('pair/B', 1, 10)));
  assert.is(store.get('pair/C'), undefined);
  // The hash holds each view's last word only.
  published.writeHash();
  const hashed = await (await link()).command.hgetallBuffer(redisNames.snapshots);
  assert.ok(hashed['pair/A'] !== undefined && hashed['pair/B'] !== undefined);
  assert.is(hashed['pair/C'], undefined);
});

test('a batch leaves once its first frame has waited batchWaitMs: at 0, a message a view',
  async () => {
    const { store } = await front();
    const messages = await tap();
    const sink = (await publisher(0)).sink(new SnapshotStore());
    for (const name of ['pair/W1', 'pair/W2', 'pair/W3']) {
      sink.put(name, body(name, 1, 10), meta(1));
    }
    await eventually(() => store.get('pair/W3') !== undefined, { message: 'the views arrived' });
    await eventually(() => messages.length === 3, { message: 'three messages' });
    assert.equal(messages.map((m) => m.frames), [1, 1, 1]);
  });

test('the hash holds the last word: a view put twice, one deleted and put again', async () => {
  const published = await publisher();
  const sink = published.sink(new SnapshotStore());
  const command = (await link()).command;
  // A batch without deletions, then one with a deletion.
  sink.put('pair/TWICE', body('pair/TWICE', 1, 10), meta(1));
  sink.put('pair/TWICE', body('pair/TWICE', 2, 10), meta(2));
  await turnEnd();
  published.writeHash();
  await eventually(async () => (await command.hgetBuffer(redisNames.snapshots, 'pair/TWICE'))
    ?.includes(body('pair/TWICE', 2, 10)) === true, { message: 'the second frame in the hash' });
  sink.put('pair/BACK', body('pair/BACK', 1, 10), meta(1));
  await turnEnd();
  published.writeHash();
  await eventually(async () =>
    await command.hexists(redisNames.snapshots, 'pair/BACK') === 1, { message: 'pair/BACK' });
  sink.delete('pair/BACK');
  sink.put('pair/BACK', body('pair/BACK', 3, 10), meta(3));
  sink.put('pair/TWICE', body('pair/TWICE', 3, 10), meta(3));
  await turnEnd();
  published.writeHash();
  await eventually(async () => (await command.hgetBuffer(redisNames.snapshots, 'pair/TWICE'))
    ?.includes(body('pair/TWICE', 3, 10)) === true, { message: 'the third frame in the hash' });
  const back = await command.hgetBuffer(redisNames.snapshots, 'pair/BACK');
  assert.ok(back?.includes(body('pair/BACK', 3, 10)), 'put again after its deletion');
});

test('a front that missed the messages catches up from the hash', async () => {
  const ingest = new SnapshotStore();
  const sink = (await publisher()).sink(ingest);
  const names = Array.from({ length: 100 }, (_, i) => `pair/LATE${i}`);
  for (const name of names) sink.put(name, body(name, 1, 2_000), meta(1));
  const listening = await front();
  await eventually(() => names.every((name) => listening.store.get(name) !== undefined),
    { message: 'the listening front has every view' });
  // This front was not subscribed when the batches went out: it asks for the hash and loads it.
  const late = await front();
  for (const name of names) {
    const got = late.store.get(name);
    assert.ok(got !== undefined, name);
    assert.ok(got.body.equals(ingest.get(name)!.body));
    assert.is(got.etag, ingest.get(name)!.etag);
  }
});

test('channels are heard as bytes: no message is decoded as UTF-8 first', async () => {
  const listening = await link();
  const heard: Buffer[] = [];
  listening.listen('orderflow:test', (message) => heard.push(message));
  const binary = Buffer.from([0xff, 0xfe, 0x00, 0x80]);
  await (await link()).command.publish('orderflow:test', binary);
  await eventually(() => heard.length === 1, { message: 'the message heard' });
  assert.ok(heard[0]!.equals(binary));
  // ioredis decodes every message as UTF-8 when anything listens to 'message': a front's shared
  // state (the key and account mirrors) listens through `listen` too.
  const shared = await openSharedState(redis.url, systemClock, silentLogger);
  try {
    assert.ok(shared.link.subscriber.listenerCount('messageBuffer') > 0);
    assert.is(shared.link.subscriber.listenerCount('message'), 0);
  } finally {
    await shared.close();
  }
});

test.run();
