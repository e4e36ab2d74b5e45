// Crash safety of the real server: `orderflow serve` is killed with SIGKILL at random points while
// keys change, quota is spent and webhook tests are queued, 20 times; after every restart nothing
// that was acknowledged is lost (docs/decisions.md "Persistence").
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, tempDir } from '../helpers/eventually.js';
import { clearOfRomeMidnight } from '../helpers/rome-midnight.js';
import { binPath, startServeProcess } from '../helpers/service-process.js';

const restarts = 20;
/** Usage is written behind every 250 ms; what was answered this long before a kill must hold. */
const usageDurableAfterMs = 1_000;
const env = { ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS: '1' };

function cli(dataDir: string, ...args: string[]): string {
  const result = spawnSync(process.execPath, [binPath, ...args, '--data-dir', dataDir],
    { encoding: 'utf8', env: { ...process.env, ...env } });
  assert.is(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** A seeded generator, so a failing run can be replayed with the same choices. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

interface KeyState { key: string; prefix: string; plan: string; revoked: boolean }

test(`nothing acknowledged is lost across ${restarts} kill -9s`, async () => {
  // The usage it checks at the end is the Rome day's: all of it in one day.
  await clearOfRomeMidnight(5 * 60_000);
  const dataDir = await tempDir();
  const rand = random(Number(process.env.CRASH_SEED ?? 7));
  const received = new Set<string>();
  const receiver: Server = createServer((req, res) => {
    received.add(String(req.headers['x-service-event-id']));
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const keys: KeyState[] = [];
  /** Per key, the wall time of every 200 answer; killedAtMs per round. */
  const spent = new Map<string, { answeredAtMs: number[] }>();
  const killedAtMs: number[] = [];
  const queuedTests: number[] = [];
  let endpointId = '';
  try {
    const whale = JSON.parse(cli(dataDir, 'keys', 'create', '--plan', 'Whale', '--json'));
    keys.push({ key: whale.key, prefix: whale.prefix, plan: 'Whale', revoked: false });
    endpointId = JSON.parse(cli(dataDir, 'webhooks', 'add', '--key', whale.prefix, '--url', url,
      '--json')).id;
    for (let round = 0; round < restarts; round++) {
      const service = await startServeProcess(['--data-dir', dataDir, '--shards', '1'], env);
      const killAtMs = Date.now() + 200 + rand() * 1_500;
      const live = keys.filter((k) => !k.revoked);
      const spender = live[Math.floor(rand() * live.length)];
      const answered = spent.get(spender.prefix) ?? { answeredAtMs: [] };
      spent.set(spender.prefix, answered);
      // Spend quota until the kill; every 200 is an acknowledgement.
      const spending = (async () => {
        while (Date.now() < killAtMs) {
          const r = await fetch(`${service.baseUrl}/api/v1/screener`,
            { headers: { authorization: `Bearer ${spender.key}` } }).catch(() => null);
          if (r?.status === 200) answered.answeredAtMs.push(Date.now());
          await r?.arrayBuffer();
        }
      })();
      // Meanwhile the admin command line changes keys and queues a webhook test.
      const choice = rand();
      if (choice < 0.4) {
        const made = JSON.parse(cli(dataDir, 'keys', 'create', '--plan', 'Pro', '--json'));
        keys.push({ key: made.key, prefix: made.prefix, plan: 'Pro', revoked: false });
      } else if (choice < 0.6 && live.length > 1) {
        const victim = live[live.length - 1];
        cli(dataDir, 'keys', 'revoke', victim.prefix);
        victim.revoked = true;
      } else if (choice < 0.8) {
        const target = live[Math.floor(rand() * live.length)];
        const plan = target.plan === 'Whale' ? 'API' : 'Whale';
        cli(dataDir, 'keys', 'set-plan', target.prefix, plan);
        target.plan = plan;
      } else {
        cli(dataDir, 'webhooks', 'test', endpointId);
        queuedTests.push(round);
      }
      await spending;
      killedAtMs.push(Date.now());
      service.child.kill('SIGKILL');
      await service.exited;
    }
    // One last start: check every acknowledged change and count.
    const service = await startServeProcess(['--data-dir', dataDir, '--shards', '1'], env);
    try {
      const listed = JSON.parse(cli(dataDir, 'keys', 'list', '--json')) as
        { prefix: string; plan: string; revokedAt?: string | null; status?: string }[];
      for (const k of keys) {
        const row = listed.find((r) => r.prefix === k.prefix);
        assert.ok(row, `key ${k.prefix} survived`);
        assert.is(row!.plan, k.plan, `plan of ${k.prefix}`);
        const revoked = row!.status === 'revoked' || Boolean(row!.revokedAt);
        assert.is(revoked, k.revoked, `revocation of ${k.prefix}`);
      }
      for (const k of keys.filter((x) => !x.revoked && spent.has(x.prefix))) {
        const usage = await (await fetch(`${service.baseUrl}/api/v1/usage`,
          { headers: { authorization: `Bearer ${k.key}` } })).json() as { used: number };
        const total = spent.get(k.prefix)!.answeredAtMs.length;
        // A kill can cut off the answer of one counted request per round.
        assert.ok(usage.used <= total + restarts,
          `${k.prefix}: used ${usage.used} <= answered ${total} + ${restarts}`);
        assert.ok(usage.used >= durableCount(spent.get(k.prefix)!.answeredAtMs, killedAtMs),
          `${k.prefix}: used ${usage.used} keeps what was answered before the write-behind`);
      }
      // Every queued test event is delivered in the end (at-least-once, across the kills).
      const queued = JSON.parse(cli(dataDir, 'webhooks', 'deliveries', endpointId, '--json',
        '--limit', '100')) as unknown[];
      assert.ok(queued.length >= queuedTests.length);
      await eventually(() => received.size >= queuedTests.length,
        { timeoutMs: 20_000, message: `${queuedTests.length} test events delivered` });
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  } finally {
    receiver.close();
  }
});

/**
 * Answers that must have survived: those given at least the write-behind margin before the kill
 * of the round they were given in (the first kill after them).
 */
function durableCount(answeredAtMs: readonly number[], killedAtMs: readonly number[]): number {
  return answeredAtMs.filter((at) => {
    const kill = killedAtMs.find((k) => k >= at);
    return kill === undefined || kill - at >= usageDurableAfterMs;
  }).length;
}

test.run();
