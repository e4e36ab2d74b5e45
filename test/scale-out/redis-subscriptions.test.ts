// A link's subscriptions across Redis restarts, over a real Redis: a listened channel hears
// messages again after Redis came back empty, even when the event loop was held 600 ms (past the
// 500 ms command timeout) right after the re-subscribe left; no promise is left unhandled on the
// way; and a reconnect handler that throws is logged without stopping the others.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Redis } from 'ioredis';
import { createLogger } from '../../core/logger.js';
import { openRedisLink, type RedisLink } from '../../scale-out/redis-link.js';
import { eventually } from '../helpers/eventually.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

let redis: RedisServer;
let publisher: Redis;
const links: RedisLink[] = [];
const logLines: string[] = [];
const logger = createLogger({ level: 'info', json: true, write: (line) => logLines.push(line) });
let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => { unhandled.push(reason); };

test.before(async () => {
  // Counted here, not by the process: the test sees a rejection nobody handled.
  process.on('unhandledRejection', onUnhandled);
  redis = await startRedisServer();
  publisher = new Redis(redis.url, { maxRetriesPerRequest: 0 });
  publisher.on('error', () => {});
});

test.after(async () => {
  for (const link of links) await link.close();
  publisher?.disconnect();
  await redis?.stop();
  process.off('unhandledRejection', onUnhandled);
});

async function openLink(testReadyBlockMs = 0): Promise<RedisLink> {
  const link = await openRedisLink(redis.url, logger, { testReadyBlockMs });
  links.push(link);
  await eventually(() => link.ready(), { message: 'link ready' });
  return link;
}

/** Publishes on `channel` until `heard` holds a message (a SUBSCRIBE may still be on its way). */
async function heardAfterPublish(channel: string, heard: string[]): Promise<void> {
  await eventually(async () => {
    await publisher.publish(channel, 'hello').catch(() => 0);
    return heard.includes('hello');
  }, { timeoutMs: 10_000, intervalMs: 100, message: `a message on ${channel}` });
}

test('a channel is heard again after Redis restarts empty, with the loop held 600 ms at ' +
  'each reconnect; nothing left unhandled', async () => {
  unhandled = [];
  const link = await openLink(600);
  const heard: string[] = [];
  link.listen('test:channel', (message) => heard.push(message.toString('utf8')));
  await heardAfterPublish('test:channel', heard);
  for (let round = 0; round < 3; round++) {
    heard.length = 0;
    await redis.stop();
    await eventually(() => !link.ready(), { message: 'link down' });
    await redis.start();
    await eventually(() => link.ready(), { timeoutMs: 10_000, message: 'link back' });
    await heardAfterPublish('test:channel', heard);
  }
  // The re-subscribe timed out behind the held loop (each time), and was made again.
  assert.ok(logLines.some((line) => line.includes('subscribing to redis channels failed')),
    logLines.slice(-5).join('\n'));
  assert.equal(unhandled, []);
});

test('a reconnect handler that throws is logged; the handlers after it still run', async () => {
  const link = await openLink();
  let later = 0;
  let calls = 0;
  // Called at once (the link is up): it throws from the reconnect on.
  link.onReady(() => { if (calls++ > 0) throw new Error('handler fault'); });
  link.onReady(() => { later++; });
  await redis.stop();
  await eventually(() => !link.ready(), { message: 'link down' });
  await redis.start();
  await eventually(() => later === 2, { timeoutMs: 10_000, message: 'the later handler ran' });
  assert.ok(logLines.some((line) => line.includes('a redis reconnect handler failed') &&
    line.includes('handler fault')));
});

test.run();
