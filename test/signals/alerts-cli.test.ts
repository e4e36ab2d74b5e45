// `orderflow alerts add|list|remove` against a store in a temporary data directory.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../core/clock.js';
import type { AlertRecord } from '../../actors/signals/alerts.js';
import { UsageError } from '../../bin/cli.js';
import { command } from '../../bin/commands/alerts.js';
import { openStore } from '../../persistence/store.js';
import { tempDir } from '../helpers/eventually.js';

interface Run { code: number; out: string; err: string }

/** Runs `orderflow alerts ...` as bin/main.ts does: a UsageError is one line and its code. */
async function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  let out = '';
  let err = '';
  const io = { stdout: (t: string) => { out += t; }, stderr: (t: string) => { err += t; }, env };
  try {
    const code = await command.run(args.slice(1), io);
    return { code, out, err };
  } catch (error) {
    const code = error instanceof UsageError ? error.exitCode : 1;
    return { code, out, err: err + (error as Error).message };
  }
}

async function withKeys<T>(body: (dir: string, pro: string, trader: string) => Promise<T>) {
  const dir = await tempDir();
  try {
    const store = await openStore({ dataDir: dir, clock: new ManualClock(0), watchKeys: false });
    const pro = (await store.keys.create({ plan: 'Pro' })).record.prefix;
    const trader = (await store.keys.create({ plan: 'Trader' })).record.prefix;
    await store.close();
    return await body(dir, pro, trader);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('add, list and remove an alert of each kind', async () => {
  await withKeys(async (dir, pro) => {
    const common = ['--data-dir', dir, '--key', pro, '--webhook', 'https://hooks.example.com/a'];
    const kinds: string[][] = [
      ['--kind', 'entry_signal', '--symbols', 'BTC,ETH', '--timeframes', '15m,1h',
        '--min-grade', 'A'],
      ['--kind', 'price', '--symbol', 'BTC', '--level', '70000', '--direction', 'above'],
      ['--kind', 'screener', '--symbol', 'all', '--field', 'fundingAnnualized', '--above', '50'],
      ['--kind', 'sweep', '--symbol', 'ETH', '--level', '3000', '--side', 'low'],
      ['--kind', 'delta_flip', '--symbol', 'SOL', '--timeframe', '15m', '--window', '4',
        '--cooldown', '30m'],
      ['--kind', 'drawing', '--symbol', 'BTC', '--point1', '2026-03-01T00:00:00Z,60000',
        '--point2', '2026-03-02T00:00:00Z,61000', '--direction', 'below'],
    ];
    const ids: string[] = [];
    for (const options of kinds) {
      const added = await run(['alerts', 'add', ...common, ...options, '--json']);
      assert.is(added.code, 0, added.err);
      const record = JSON.parse(added.out) as AlertRecord;
      assert.match(record.id, /^alr_[0-9a-f]{16}$/);
      assert.is(record.keyPrefix, pro);
      ids.push(record.id);
    }
    const listed = await run(['alerts', 'list', '--data-dir', dir, '--json']);
    const records = JSON.parse(listed.out) as AlertRecord[];
    assert.equal(records.map((r) => r.kind),
      ['entry_signal', 'price', 'screener', 'sweep', 'delta_flip', 'drawing']);
    const entry = records[0];
    assert.ok(entry.kind === 'entry_signal' && entry.minGrade === 'A');
    assert.is(records[2].cooldownMs, 3_600_000, 'screener cooldown default 1h');
    assert.is(records[4].cooldownMs, 1_800_000);
    const text = await run(['alerts', 'list', '--data-dir', dir, '--key', pro]);
    assert.match(text.out, /price\s+level=70000 direction=above/);
    const removed = await run(['alerts', 'remove', ids[1], '--data-dir', dir]);
    assert.is(removed.code, 0);
    const again = await run(['alerts', 'remove', ids[1], '--data-dir', dir]);
    assert.is(again.code, 1);
    assert.match(again.err, /no alert has the id/);
    const after = JSON.parse((await run(['alerts', 'list', '--data-dir', dir, '--json'])).out);
    assert.is(after.length, 5);
  });
});

test('refusals: plan, unknown key, bad options, bad webhook, no store', async () => {
  await withKeys(async (dir, pro, trader) => {
    const base = (key: string) => ['alerts', 'add', '--data-dir', dir, '--key', key,
      '--webhook', 'https://hooks.example.com/a'];
    const plan = await run([...base(trader), '--kind', 'entry_signal']);
    assert.is(plan.code, 1);
    assert.match(plan.err, /need the Pro plan or above \(key ofk_[0-9a-f]{8} was on Trader\)/);
    const traderPrice = await run([...base(trader), '--kind', 'price', '--symbol', 'BTC',
      '--level', '1', '--direction', 'above']);
    assert.is(traderPrice.code, 0, 'other kinds only need a live key');
    const unknown = await run([...base('ofk_00000000'), '--kind', 'price', '--symbol', 'BTC',
      '--level', '1', '--direction', 'above']);
    assert.match(unknown.err, /no key has the prefix ofk_00000000/);
    const bad = await run([...base(pro), '--kind', 'price', '--symbol', 'BTC', '--level', 'x',
      '--direction', 'above']);
    assert.is(bad.code, 2);
    assert.match(bad.err, /--level must be a positive number \(was "x"\)/);
    const http = await run(['alerts', 'add', '--data-dir', dir, '--key', pro, '--kind', 'price',
      '--symbol', 'BTC', '--level', '1', '--direction', 'above', '--webhook',
      'http://127.0.0.1:9/h']);
    assert.match(http.err, /--webhook must use https/);
    const allowed = await run(['alerts', 'add', '--data-dir', dir, '--key', pro, '--kind',
      'price', '--symbol', 'BTC', '--level', '1', '--direction', 'above', '--webhook',
      'http://127.0.0.1:9/h'], { ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS: '1' });
    assert.is(allowed.code, 0, allowed.err);
    const unknownFlag = await run([...base(pro), '--kind', 'price', '--colour', 'red']);
    assert.is(unknownFlag.code, 2);
    const badId = await run(['alerts', 'remove', 'alr_x', '--data-dir', dir]);
    assert.match(badId.err, /ID must be alr_ followed by 16/);
  });
  const empty = await tempDir();
  try {
    const none = await run(['alerts', 'list', '--data-dir', empty]);
    assert.is(none.code, 1);
    assert.match(none.err, /no store yet/);
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
});

test.run();
