// kill -9 resume: a child process publishes and attempts, is killed, and a restarted supervisor
// on the same store delivers with the same event id and the right attempt number.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createWebhookSupervisor } from '../../actors/webhooks/supervisor.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { fakeKeys, startReceiver, T0, type Reply } from './fixtures.js';

const childPath = fileURLToPath(new URL('./fixtures-child.ts', import.meta.url));

function startChild(dir: string, url: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', childPath, dir, url, String(T0)], {
    env: { ...process.env, ORDERFLOW_WEBHOOK_CHILD: '1' }, stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(JSON.parse(l)));
  return { child, lines };
}

async function killNine(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function restarted(dir: string, startMs: number) {
  const root = open({ path: dir });
  const clock = new ManualClock(startMs);
  const sup = createWebhookSupervisor({
    root, clock, logger: silentLogger, keys: fakeKeys({ ofk_aaaaaaaa: 'Pro' }),
    allowPrivate: true, random: () => 0,
  });
  return { root, clock, sup };
}

test('killed between retries: the restart resumes at attempt 3 on schedule', async () => {
  let reply: Reply = { status: 500 };
  const rx = await startReceiver(() => reply);
  const dir = await tempDir('orderflow-webhooks-kill-');
  const { child, lines } = startChild(dir, rx.url);
  try {
    await eventually(() => lines.length === 1 && rx.received.length === 1, { timeoutMs: 15_000 });
    child.stdin!.write('advance 5000\n');
    await eventually(() => lines.length === 2, { timeoutMs: 10_000 });
    assert.equal(lines[1], { attempts: 2, status: 'pending' });
    await killNine(child);

    reply = { status: 200 };
    const { root, clock, sup } = await restarted(dir, T0 + 5_000);
    try {
      sup.start();
      await sup.tick();
      await sup.idle();
      assert.is(rx.received.length, 2, 'attempt 3 waits for its time (5 min after attempt 2)');
      clock.advance(300_000);
      await sup.tick();
      await sup.idle();
      assert.is(rx.received.length, 3);
      const third = rx.received[2];
      assert.is(third.headers['x-service-attempt'], '3');
      assert.is(third.headers['x-service-event-id'], lines[0].published);
      assert.is(third.body, rx.received[0].body);
      const [d] = sup.deliveries(String(lines[0].endpointId));
      assert.equal([d.status, d.attempts], ['delivered', 3]);
    } finally {
      await sup.stop();
      await root.close();
    }
  } finally {
    await killNine(child);
    await rx.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('killed during an attempt: the restart repeats it with the same event id', async () => {
  let reply: Reply = 'hang';
  const rx = await startReceiver(() => reply);
  const dir = await tempDir('orderflow-webhooks-kill-');
  const { child, lines } = startChild(dir, rx.url);
  try {
    await eventually(() => lines.length === 1 && rx.received.length === 1, { timeoutMs: 15_000 });
    await killNine(child);
    reply = { status: 200 };
    const { root, sup } = await restarted(dir, T0);
    try {
      sup.start();
      await sup.idle();
      await eventually(() => rx.received.length === 2);
      await sup.idle();
      const [first, again] = rx.received;
      assert.is(again.headers['x-service-event-id'], first.headers['x-service-event-id']);
      assert.is(again.headers['x-service-attempt'], '1', 'the unrecorded attempt is repeated');
      assert.is(again.body, first.body);
      const [d] = sup.deliveries(String(lines[0].endpointId));
      assert.equal([d.status, d.attempts], ['delivered', 1]);
      assert.is(sup.stats().pending, 0);
    } finally {
      await sup.stop();
      await root.close();
    }
  } finally {
    await killNine(child);
    await rx.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
