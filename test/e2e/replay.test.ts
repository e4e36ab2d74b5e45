// Replay is deterministic end to end: the same recording, replayed twice at --speed max through
// the whole service, gives byte-identical CVD views and identical deep views at the same data time.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { startService } from '../../bin/service.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { binPath } from '../helpers/service-process.js';

const tradedPairs = 4;

function record(file: string, format = 'json'): string[] {
  const result = spawnSync(process.execPath, [binPath, 'record', '--out', file, '--feed', 'sim',
    '--duration', '240', '--speed', 'max', '--tracked', String(tradedPairs), '--start',
    '2026-11-20T10:00:00Z', '--format', format], { encoding: 'utf8' });
  assert.is(result.status, 0, result.stderr);
  const symbols = new Set<string>();
  for (const line of spawnSync('grep', ['-o', '"type":"trade","symbol":"[^"]*"', file],
    { encoding: 'utf8' }).stdout.split('\n')) {
    const match = /"symbol":"([^"]+)"/.exec(line);
    if (match) symbols.add(match[1]);
  }
  return [...symbols].sort();
}

/** Replays the file through a fresh service and returns each pair's views once they settle. */
async function replayOnce(file: string, symbols: readonly string[]): Promise<string[]> {
  const dataDir = join(await tempDir(), 'data');
  const service = await startService(resolveConfig({
    port: 0, dataDir, feed: 'replay', replayFile: file, speed: Infinity, shards: 1,
    cadenceMs: 100, universeCadenceMs: 500, logLevel: 'silent',
  }), { logger: silentLogger });
  try {
    // Settled: the replay is over, so every pair has gone stale after its data and its view
    // stops changing (a pair that saw nothing yet is stale too, with a null CVD).
    const bodies = () => symbols.map((s) => service.snapshots.get(`cvd/${s}`)?.body.toString());
    const settled = (body: string | undefined) => {
      const view = body === undefined ? null : JSON.parse(body) as { stale: boolean; cvd: unknown };
      return view !== null && view.stale && view.cvd !== null;
    };
    await eventually(() => bodies().every(settled),
      { timeoutMs: 30_000, message: 'replay finished and every pair went stale after its data' });
    const out = bodies() as string[];
    for (const symbol of symbols) {
      const deep = JSON.parse(service.snapshots.get(`deep-view/${symbol}`)!.body.toString());
      delete deep.smartMoney; // spliced on the main thread from wallet polls, on its own cadence
      out.push(JSON.stringify(deep));
    }
    return out;
  } finally {
    await service.stop();
  }
}

test('the same recording replayed twice gives identical views', async () => {
  const file = join(await tempDir(), 'recording.ndjson');
  const symbols = record(file);
  assert.is(symbols.length, tradedPairs);
  const first = await replayOnce(file, symbols);
  const second = await replayOnce(file, symbols);
  assert.ok(first.every((body) => body.length > 50));
  assert.equal(second, first);
  // The same session recorded in the compact format replays to the same views.
  const compact = join(await tempDir(), 'recording.compact');
  record(compact, 'compact');
  assert.equal(await replayOnce(compact, symbols), first);
  // And in the binary format.
  const binary = join(await tempDir(), 'recording.bin');
  record(binary, 'binary');
  assert.equal(await replayOnce(binary, symbols), first);
  const cvd = JSON.parse(first[0]);
  assert.type(cvd.cvd, 'number');
  assert.ok(Object.values(cvd.history).some((points) => (points as unknown[]).length > 0),
    'the replay produced CVD history');
});

test.run();
