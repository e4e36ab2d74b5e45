// `orderflow webhooks` end to end: the real command line in child processes writing the store
// while a supervisor in this process serves it and picks the changes up; plus argument errors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createWebhookSupervisor } from '../../actors/webhooks/supervisor.js';
import { openStore } from '../../persistence/store.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { cliOn } from './cli-harness.js';
import { fakeKeys, matchingEntries, openTestRoot, startReceiver } from './fixtures.js';

const bin = fileURLToPath(new URL('../../bin/orderflow.js', import.meta.url));
const run = promisify(execFile);

async function orderflow(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args],
      { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test('CLI writes reach a running supervisor: add, test, deliveries, rotate', async () => {
  const dataDir = await tempDir('orderflow-webhooks-cli-');
  const rx = await startReceiver();
  const created = await orderflow(['keys', 'create', '--plan', 'Whale', '--json',
    '--data-dir', dataDir]);
  assert.is(created.code, 0, created.stderr);
  const { prefix } = JSON.parse(created.stdout);
  const store = await openStore({ dataDir, clock: systemClock });
  const sup = createWebhookSupervisor({
    root: store.root, clock: systemClock, logger: silentLogger, keys: store.keys,
    allowPrivate: true,
  });
  sup.start();
  try {
    const refusedHttp = await orderflow(['webhooks', 'add', '--key', prefix, '--url', rx.url,
      '--data-dir', dataDir]);
    assert.is(refusedHttp.code, 1);
    assert.match(refusedHttp.stderr, /url must be an absolute https URL; http needs /);
    assert.match(refusedHttp.stderr, /ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS=1 .*\(was "http:/);
    const allow = { ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS: '1' };
    const added = await orderflow(['webhooks', 'add', '--key', prefix, '--url', rx.url, '--json',
      '--data-dir', dataDir], allow);
    assert.is(added.code, 0, added.stderr);
    const { id, secret } = JSON.parse(added.stdout);
    await eventually(() => sup.endpoints.byUrl(prefix, rx.url)?.id === id, { timeoutMs: 5_000 });

    const listed = await orderflow(['webhooks', 'list', '--data-dir', dataDir]);
    assert.match(listed.stdout, new RegExp(`${id}\\s+${prefix}\\s+active`));
    assert.not.match(listed.stdout, /whsec_/);

    const sent = await orderflow(['webhooks', 'test', id, '--data-dir', dataDir]);
    assert.match(sent.stdout, /test event evt_[0-9a-f]{24} queued/);
    await eventually(() => rx.received.length === 1, { timeoutMs: 5_000 });
    assert.is(await matchingEntries(rx.received[0], [secret]), 1);
    await eventually(() => sup.deliveries(id)[0]?.status === 'delivered');
    const shown = await orderflow(['webhooks', 'deliveries', id, '--json', '--data-dir', dataDir]);
    assert.is(JSON.parse(shown.stdout)[0].status, 'delivered');

    const rotated = await orderflow(['webhooks', 'rotate', id, '--json', '--data-dir', dataDir]);
    const fresh = JSON.parse(rotated.stdout).secret;
    await orderflow(['webhooks', 'test', id, '--data-dir', dataDir]);
    await eventually(() => rx.received.length === 2, { timeoutMs: 5_000 });
    assert.is(await matchingEntries(rx.received[1], [fresh, secret]), 2, 'signed with both');
  } finally {
    await sup.stop();
    await store.close();
    await rx.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('argument and state errors name what was expected and what was found', async () => {
  const db = await openTestRoot();
  const { command } = cliOn(db.root, fakeKeys({ ofk_00000002: 'Trader', ofk_00000003: 'Pro' }));
  const out: string[] = [];
  const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t),
    env: { ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS: '1' } };
  const fails = async (args: string[], message: RegExp) => {
    await command.run(args, io).then(
      (code) => assert.unreachable(`${args.join(' ')} exited ${code}`),
      (error) => assert.match(error.message, message, args.join(' ')));
  };
  try {
    await fails(['add', '--url', 'http://127.0.0.1:1/'], /--key PREFIX is required/);
    await fails(['add', '--key', 'ofk_00000002', '--url', 'http://127.0.0.1:1/'],
      /need the Pro plan or above \(plan was Trader\)/);
    await fails(['rotate'], /an ID argument is required/);
    await fails(['rotate', 'we_0000000000000000'], /endpoint id must exist/);
    await fails(['deliveries', 'x', '--limit', '0'], /--limit must be an integer/);
    await fails(['replay', 'evt_000000000000000000000000'], /event id must exist/);
    await fails(['frobnicate'], /unknown webhooks subcommand/);
    await fails(['list', '--bogus'], /bogus/);
    assert.is(await command.run(['add', '--key', 'ofk_00000003', '--url',
      'http://127.0.0.1:1/a'], io), 0);
    assert.match(out.join(''), /secret  whsec_/);
    out.length = 0;
    assert.is(await command.run(['list'], io), 0);
    assert.not.match(out.join(''), /whsec_/);
  } finally {
    await db.close();
  }
});

test.run();
