// The admin command line: keys create/list/revoke/set-plan and backup, their output, and bad
// input answered with one stderr line, a non-zero exit and an untouched store.
import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Command, CommandIo } from '../../bin/cli.js';
import { UsageError } from '../../bin/cli.js';
import { command as backupCommand } from '../../bin/commands/backup.js';
import { command as keysCommand } from '../../bin/commands/keys.js';
import { tempDir } from '../helpers/eventually.js';

interface Run { code: number; stdout: string; stderr: string }

const commands: Record<string, Command> = { keys: keysCommand, backup: backupCommand };

/**
 * What bin/main.ts does for one command (it cannot be imported here: its top-level await does
 * not load under the test runner's CommonJS transform).
 */
async function main(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  try {
    return await commands[name].run(rest, io);
  } catch (error) {
    io.stderr(`orderflow ${name}: ${(error as Error).message}\n`);
    return error instanceof UsageError ? error.exitCode : 1;
  }
}

async function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env,
  });
  return { code, stdout, stderr };
}

async function listJson(dataDir: string): Promise<Record<string, unknown>[]> {
  const listed = await run(['keys', 'list', '--json', '--data-dir', dataDir]);
  assert.is(listed.code, 0, listed.stderr);
  return JSON.parse(listed.stdout);
}

test('create --json prints key, prefix and the canonical plan once', async () => {
  const dataDir = await tempDir();
  const created = await run(['keys', 'create', '--plan', 'wHaLe', '--json',
    '--subscription-start', '2026-09-01', '--label', 'desk one'], { ORDERFLOW_DATA_DIR: dataDir });
  assert.is(created.code, 0, created.stderr);
  const body = JSON.parse(created.stdout);
  assert.equal(Object.keys(body), ['key', 'prefix', 'plan']);
  assert.match(body.key, /^ofk_[0-9a-f]{32}$/);
  assert.is(body.prefix, body.key.slice(0, 12));
  assert.is(body.plan, 'Whale');
  const [listed] = await listJson(dataDir);
  assert.is(listed.prefix, body.prefix);
  assert.is(listed.subscriptionStart, '2026-09-01');
  assert.is(listed.subscriptionStartMs, Date.parse('2026-08-31T22:00:00Z'));
  assert.is(listed.label, 'desk one');
  assert.not.ok(JSON.stringify(listed).includes(body.key), 'list never shows the key');
});

test('plain create prints the key; list shows a table; revoke and set-plan report', async () => {
  const dataDir = await tempDir();
  const created = await run(['keys', 'create', '--plan', 'starter', '--data-dir', dataDir]);
  assert.is(created.code, 0);
  const key = created.stdout.trim();
  assert.match(key, /^ofk_[0-9a-f]{32}$/);
  const prefix = key.slice(0, 12);
  const table = await run(['keys', 'list', '--data-dir', dataDir]);
  assert.match(table.stdout, /^PREFIX\s+PLAN\s+STATUS/);
  assert.match(table.stdout, new RegExp(`${prefix}\\s+Starter\\s+active`));
  const moved = await run(['keys', 'set-plan', prefix, 'api', '--data-dir', dataDir]);
  assert.is(moved.stdout, `${prefix} is now on plan API\n`);
  assert.is((await run(['keys', 'revoke', prefix, '--data-dir', dataDir])).stdout,
    `revoked ${prefix}\n`);
  const again = await run(['keys', 'revoke', prefix, '--data-dir', dataDir]);
  assert.is(again.code, 0);
  assert.match(again.stdout, 'already revoked');
  assert.match((await run(['keys', 'list', '--data-dir', dataDir])).stdout, 'revoked');
});

test('--data-dir wins over ORDERFLOW_DATA_DIR', async () => {
  const [flagDir, envDir] = [await tempDir(), await tempDir()];
  await run(['keys', 'create', '--plan', 'pro', '--data-dir', flagDir],
    { ORDERFLOW_DATA_DIR: envDir });
  assert.is((await listJson(flagDir)).length, 1);
  assert.is((await listJson(envDir)).length, 0);
  assert.not.ok(existsSync(`${envDir}/store`), 'listing an empty data dir creates nothing');
});

test('bad input: one stderr line, non-zero exit, store untouched', async () => {
  const dataDir = await tempDir();
  const created = await run(['keys', 'create', '--plan', 'pro', '--json', '--data-dir', dataDir]);
  const { prefix } = JSON.parse(created.stdout);
  await run(['keys', 'revoke', prefix, '--data-dir', dataDir]);
  const before = JSON.stringify(await listJson(dataDir));
  const missing = `${dataDir}/nope`;
  const cases: [string[], RegExp][] = [
    [['keys', 'create', '--plan', 'gold'], /--plan must be one of Free, .*\(was 'gold'\)/],
    [['keys', 'create'], /--plan is required/],
    [['keys', 'create', '--plan', 'pro', '--subscription-start', '2026-02-30'],
      /--subscription-start must be a calendar date YYYY-MM-DD \(was '2026-02-30'\)/],
    [['keys', 'create', '--plan', 'pro', '--label', 'x'.repeat(201)], /--label must be/],
    [['keys', 'revoke', 'ofk_00000000'], /no key has the prefix ofk_00000000/],
    [['keys', 'revoke', 'ofk_XYZ'], /PREFIX must be ofk_ followed by 8/],
    [['keys', 'set-plan', 'ofk_00000000', 'pro'], /no key has the prefix/],
    [['keys', 'set-plan', prefix, 'nope'], /PLAN must be one of/],
    [['keys', 'set-plan', prefix, 'pro'], /was revoked at/],
    [['keys', 'list', '--bogus'], /Unknown option '--bogus'/],
    [['keys', 'rotate'], /unknown keys subcommand 'rotate'/],
    [['backup'], /--out DIR is required/],
  ];
  for (const [args, message] of cases) {
    const result = await run([...args, '--data-dir', dataDir]);
    assert.ok(result.code !== 0, `${args.join(' ')} exited 0`);
    assert.is(result.stdout, '', args.join(' '));
    assert.is(result.stderr.split('\n').filter(Boolean).length, 1, result.stderr);
    assert.match(result.stderr, message);
  }
  for (const args of [['keys', 'list'], ['keys', 'create', '--plan', 'pro'],
    ['backup', '--out', `${dataDir}/bk`]]) {
    const result = await run([...args, '--data-dir', missing]);
    assert.is(result.code, 1);
    assert.match(result.stderr, `data directory ${missing} does not exist`);
    assert.not.ok(existsSync(missing), 'a missing data directory is not created');
  }
  assert.is(JSON.stringify(await listJson(dataDir)), before);
});

test('backup copies a data directory that is then usable as one', async () => {
  const dataDir = await tempDir();
  await run(['keys', 'create', '--plan', 'pro', '--data-dir', dataDir]);
  const out = `${await tempDir()}/copy`;
  const backup = await run(['backup', '--out', out, '--json', '--data-dir', dataDir]);
  assert.is(backup.code, 0, backup.stderr);
  assert.equal(JSON.parse(backup.stdout).keys, 1);
  assert.equal(await listJson(out), await listJson(dataDir));
  const twice = await run(['backup', '--out', out, '--data-dir', dataDir]);
  assert.is(twice.code, 1);
  assert.match(twice.stderr, 'already holds a store');
});

test.run();
