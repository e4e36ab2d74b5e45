// The shard protocol (actors/shard/protocol.ts): each side's one dispatch table has a handler for
// every kind it receives (a missing one does not compile), and a frame of an unknown kind or
// another version is refused with a logged error while both sides carry on, on real workers.
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { createLogger, silentLogger, type Logger } from '../../core/logger.js';
import {
  dispatchFrame, mainToShardTypes, pastPullMessage, PROTOCOL_VERSION, protocolTypes,
  shardToMainTypes, type MainToShard, type ProtocolHandlers, type ShardToMain,
} from '../../actors/shard/protocol.js';
import { ShardHandle, type ToHost } from '../../actors/runtime/shard-handle.js';
import { startActorRuntime, type ActorRuntime } from '../../actors/runtime/supervisor.js';
import { encodeFeedSpec } from '../../actors/shard/shard-params.js';
import { buildCatalogue } from '../../actors/feed/sim/catalogue.js';
import { shardTopics } from '../../actors/topics.js';
import { eventually } from '../helpers/eventually.js';

const noop = () => {};
const toHost: ToHost = {
  [protocolTypes.publish]: noop, [protocolTypes.history]: noop, [protocolTypes.backfill]: noop,
  [protocolTypes.pairStates]: noop, [protocolTypes.pastHeld]: noop, [protocolTypes.past]: noop,
};

/** A logger that keeps its error lines. */
function recordingLogger(): { log: Logger; errors: Record<string, unknown>[] } {
  const errors: Record<string, unknown>[] = [];
  const log = createLogger({ level: 'error', json: true,
    write: (line) => errors.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, errors };
}

test('a table without a handler for a kind does not compile', () => {
  // @ts-expect-error the main thread's table lacks `orderflow-shard-stopped`
  const main: ProtocolHandlers<ShardToMain> = { ...toHost };
  // @ts-expect-error the shard's table lacks the stop request
  const shard: ProtocolHandlers<MainToShard> = { [protocolTypes.pastPull]: noop };
  assert.ok(main && shard);
});

test('each side\'s real table has a handler for every kind it receives', async () => {
  const handle = new ShardHandle(0, [], {} as never, {} as never, silentLogger, noop, toHost);
  const fromShard = (handle as unknown as { fromShard: Record<string, unknown> }).fromShard;
  for (const kind of shardToMainTypes) assert.type(fromShard[kind], 'function', kind);
  assert.equal(Object.keys(fromShard).sort(), [...shardToMainTypes].sort());
  const { default: ShardActor } = await import('../../actors/shard/shard-actor.js');
  const fromMain = (new ShardActor() as unknown as { fromMain: Record<string, unknown> }).fromMain;
  for (const kind of mainToShardTypes) assert.type(fromMain[kind], 'function', kind);
  assert.equal(Object.keys(fromMain).sort(), [...mainToShardTypes].sort());
});

test('over a real port: unknown kinds, other versions and non-objects are refused', async () => {
  const { log, errors } = recordingLogger();
  const handled: string[] = [];
  const table: ProtocolHandlers<MainToShard> = {
    [protocolTypes.pastPull]: (m) => handled.push(`pull ${m.all}`),
    [protocolTypes.stop]: () => handled.push('stop'),
    [protocolTypes.smartMoney]: () => handled.push('smart money'),
  };
  const { port1, port2 } = new MessageChannel();
  try {
    port2.on('message', (frame: unknown) => dispatchFrame(table, frame, log, 'test'));
    port1.postMessage({ type: 'orderflow-shard-reboot', v: PROTOCOL_VERSION });
    port1.postMessage({ ...pastPullMessage, v: PROTOCOL_VERSION + 1 });
    port1.postMessage({ ...pastPullMessage });
    port1.postMessage(null);
    port1.postMessage({ type: 'toString', v: PROTOCOL_VERSION });
    port1.postMessage({ ...pastPullMessage, v: PROTOCOL_VERSION });
    await eventually(() => handled.length === 1, { message: 'the good frame handled' });
    assert.equal(handled, ['pull false']);
    assert.is(errors.length, 5);
    for (const e of errors) assert.is(e.msg, 'protocol message refused');
    assert.equal(errors.map((e) => [e.type, e.version]), [
      ['orderflow-shard-reboot', '1'], ['orderflow-past-pull', '2'],
      ['orderflow-past-pull', 'undefined'], ['undefined', 'undefined'], ['toString', '1']]);
  } finally {
    port1.close();
  }
});

const live = suite('a live shard');
const symbol = buildCatalogue(7).filter((m) => !m.isDelisted)[0]!.symbol;
const recorded = recordingLogger();
let publishes = 0;
let runtime: ActorRuntime;

live.before(async () => {
  runtime = await startActorRuntime({
    shardCount: 1,
    assignment: [[symbol]],
    shardParams: {
      feed: encodeFeedSpec({ kind: 'sim', seed: 7, speed: 1, startMs: Date.UTC(2026, 10, 2) }),
      cadenceMs: 50, mailboxCapacity: 10_000, allowCrash: false, logLevel: 'silent',
      budgetBuffer: null, feedAnchorWallMs: Date.now(),
    },
    logger: recorded.log,
    host: { onPublish: () => { publishes++; } },
  });
});

live.after(async () => {
  await runtime?.stop();
});

live('the main thread refuses a bad frame on a shard\'s port and keeps hearing it', async () => {
  await eventually(() => publishes > 0, { timeoutMs: 15_000, message: 'first publish' });
  const port = (runtime.shards[0] as unknown as { port: NodeJS.EventEmitter }).port;
  port.emit('message', { type: 'shardTeleport', v: PROTOCOL_VERSION, shardId: 0 });
  port.emit('message', { type: protocolTypes.publish, v: PROTOCOL_VERSION + 1, shardId: 0 });
  assert.equal(recorded.errors.map((e) => [e.msg, e.from, e.type]), [
    ['protocol message refused', 'shard 0', 'shardTeleport'],
    ['protocol message refused', 'shard 0', protocolTypes.publish]]);
  const seen = publishes;
  await eventually(() => publishes > seen, { timeoutMs: 15_000, message: 'publishes go on' });
});

live('a shard refuses a bad frame from the main thread and keeps working', async () => {
  const port = (runtime.shards[0] as unknown as { port: MessagePort }).port;
  let answers = 0;
  port.on('message', (frame: { type?: string }) => {
    if (frame.type === protocolTypes.past) answers++;
  });
  port.postMessage({ type: 'orderflow-shard-reboot', v: PROTOCOL_VERSION });
  port.postMessage({ type: protocolTypes.stop, v: PROTOCOL_VERSION + 1 });
  // The answer to this pull (the handle's own, stamped) comes after everything the shard sent
  // before it read the frames above: a stop it took would have ended its publishes by then.
  assert.ok(runtime.shards[0]!.pullPast());
  await eventually(() => answers === 1, { message: 'the pull answered' });
  const seen = publishes;
  await eventually(() => publishes > seen + 2, { timeoutMs: 15_000, message: 'publishes go on' });
  const pong = await runtime.shards[0]!.request(shardTopics.ping, 1) as { seq: number };
  assert.is(pong.seq, 1);
  assert.is(runtime.shards[0]!.state, 'running');
  assert.is(recorded.errors.length, 2, 'nothing else went wrong on the main thread');
});

test.run();
live.run();
