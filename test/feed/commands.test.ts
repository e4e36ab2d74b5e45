// The record, import and convert commands: determinism, the real recordings, conversion
// between the replay formats, and usage errors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { appendFile, readFile, rm } from 'node:fs/promises';
import { UsageError, type Command } from '../../bin/cli.js';
import { command as record } from '../../bin/commands/record.js';
import { command as importCommand } from '../../bin/commands/import.js';
import { command as convert } from '../../bin/commands/convert.js';
import { readReplayFile } from '../../actors/feed/replay/convert-replay.js';
import { decodeLine } from '../../actors/feed/replay/event-codec.js';
import { tempDir } from '../helpers/eventually.js';
import { venueFixture } from '../helpers/fixtures.js';

// bin/main.ts uses top-level await (not loadable under uvu's require); call commands directly
// and map a UsageError the way main does.
async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const commands: Record<string, Command> = { record, import: importCommand, convert };
  try {
    const code = await commands[args[0]].run(args.slice(1), { stdout: (t) => { stdout += t; },
      stderr: (t) => { stderr += t; }, env: {} });
    return { code, stdout, stderr };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { code: error.exitCode, stdout, stderr: error.message };
  }
}

test('record --feed sim --speed max is deterministic', async () => {
  const dir = await tempDir();
  try {
    const args = (out: string) => ['record', '--out', join(dir, out), '--duration', '20',
      '--tracked', '5', '--start', '2026-02-06T15:00:00Z', '--seed', '9'];
    const a = await cli(args('a.ndjson'));
    const b = await cli(args('b.ndjson'));
    assert.is(a.code, 0, a.stderr);
    assert.is(b.code, 0);
    const textA = await readFile(join(dir, 'a.ndjson'), 'utf8');
    assert.ok(textA === await readFile(join(dir, 'b.ndjson'), 'utf8'), 'byte-identical');
    const lines = textA.trim().split('\n');
    const times = lines.map((l) => {
      const e = decodeLine(l);
      return typeof e === 'string' ? -1 : e.tsMs;
    });
    assert.ok(times.every((t, i) => t > 0 && (i === 0 || t >= times[i - 1])), 'sorted by time');
    assert.ok(lines.some((l) => l.startsWith('{"type":"trade"')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('import converts the real recordings, deterministically', async () => {
  const dir = await tempDir();
  try {
    const args = (out: string) => ['import', '--out', join(dir, out),
      '--ws', venueFixture('hl_ws_btc_raw_2025-01-26.txt'),
      '--meta', venueFixture('hl_metaAndAssetCtxs_main_2026-02-06.json'),
      '--meta', venueFixture('hl_metaAndAssetCtxs_xyz_2026-02-06.json'),
      '--perp-dexs', venueFixture('hl_perpDexs_2025-12-13.json'),
      '--trades-csv', venueFixture('binance_usdm_btcusdt_2024-08-08_trades.csv')];
    const a = await cli(args('a.ndjson'));
    assert.is(a.code, 0, a.stderr);
    await cli(args('b.ndjson'));
    const text = await readFile(join(dir, 'a.ndjson'), 'utf8');
    assert.ok(text === await readFile(join(dir, 'b.ndjson'), 'utf8'));
    const events = text.trim().split('\n').map((l) => decodeLine(l));
    assert.ok(events.every((e) => typeof e !== 'string'));
    const count = (type: string) => events.filter((e) => typeof e !== 'string' && e.type === type)
      .length;
    assert.is(count('trade'), 64 + 21_313);
    assert.is(count('book'), 46);
    assert.is(count('universe'), 1);
    const first = events[0];
    assert.ok(typeof first !== 'string' && first.type === 'universe' &&
      first.markets.length === 271);
    // The same import in the binary format holds the same events, in order.
    const binary = await cli([...args('c.bin'), '--format', 'binary']);
    assert.is(binary.code, 0, binary.stderr);
    const fromBinary: unknown[] = [];
    const bad: string[] = [];
    readReplayFile(join(dir, 'c.bin'), (e) => fromBinary.push(e),
      (n, why) => bad.push(`${n} ${why}`));
    assert.equal(bad, []);
    assert.equal(fromBinary, events);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('convert rewrites a recording in each format and back, byte for byte', async () => {
  const dir = await tempDir();
  try {
    const json = join(dir, 'a.ndjson');
    assert.is((await cli(['record', '--out', json, '--duration', '20', '--tracked', '5',
      '--start', '2026-02-06T15:00:00Z'])).code, 0);
    const lines = (await readFile(json, 'utf8')).trim().split('\n').length;
    for (const format of ['binary', 'compact']) {
      const there = await cli(['convert', '--in', json, '--out', join(dir, `a.${format}`),
        '--format', format]);
      assert.is(there.code, 0, there.stderr);
      assert.is(there.stdout, `converted ${lines} events to ${join(dir, `a.${format}`)} ` +
        `(${format})\n`);
      const back = await cli(['convert', '--in', join(dir, `a.${format}`), '--out',
        join(dir, `${format}.ndjson`), '--format', 'json']);
      assert.is(back.code, 0, back.stderr);
      assert.ok((await readFile(json)).equals(await readFile(join(dir, `${format}.ndjson`))),
        `json -> ${format} -> json`);
    }
    // Malformed lines are skipped and shown, with exit code 1; the rest is written.
    await appendFile(json, 'nope\n');
    const bad = await cli(['convert', '--in', json, '--out', join(dir, 'b.bin'),
      '--format', 'binary']);
    assert.is(bad.code, 1);
    assert.match(bad.stderr, new RegExp(`skipped 1 malformed line\\(s\\) or record\\(s\\):\n  ${
      lines + 1}: not JSON`));
    assert.match(bad.stdout, new RegExp(`converted ${lines} events`));
    const same = await cli(['convert', '--in', json, '--out', json, '--format', 'json']);
    assert.is(same.code, 2);
    assert.match(same.stderr, /--out must not be the input file/);
    assert.match((await cli(['convert', '--in', json, '--out', join(dir, 'c')])).stderr,
      /--format json\|compact\|binary is required/);
    assert.match((await cli(['convert', '--in', join(dir, 'none'), '--out', join(dir, 'c'),
      '--format', 'json'])).stderr, /cannot read input: no file/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('usage errors name the option and what was found', async () => {
  const noOut = await cli(['record']);
  assert.is(noOut.code, 2);
  assert.match(noOut.stderr, /--out FILE is required/);
  const badFeed = await cli(['record', '--out', '/tmp/x', '--feed', 'foo']);
  assert.match(badFeed.stderr, /--feed must be sim or live \(was 'foo'\)/);
  const badSpeed = await cli(['record', '--out', '/tmp/x', '--speed', 'fast']);
  assert.match(badSpeed.stderr, /--speed must be a positive number \(was 'fast'\)/);
  const badFormat = await cli(['record', '--out', '/tmp/x', '--format', 'xml']);
  assert.is(badFormat.code, 2);
  assert.match(badFormat.stderr, /--format must be json, compact or binary \(was 'xml'\)/);
  const badImportFormat = await cli(['import', '--out', '/tmp/x', '--ws', '/x', '--format', 'b']);
  assert.match(badImportFormat.stderr, /--format must be json, compact or binary \(was 'b'\)/);
  const noInput = await cli(['import', '--out', '/tmp/x']);
  assert.match(noInput.stderr, /at least one of/);
  const missing = await cli(['import', '--out', '/tmp/x', '--ws', '/nonexistent/file']);
  assert.is(missing.code, 2);
  assert.match(missing.stderr, /cannot read input/);
  const badCsv = await cli(['import', '--out', '/tmp/x', '--trades-csv',
    venueFixture('hl_perpDexs_2025-12-13.json')]);
  assert.match(badCsv.stderr, /column trade_time_ms expected/);
});

test.run();
