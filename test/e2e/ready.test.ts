// Ready means ready (docs/decisions.md, Readiness): a client that polls /readyz and, in the very
// tick it first sees 200, asks for every tracked pair's deep view, CVD and pair detail and for the
// signals object, gets all of them: no not_tracked, no missing pair; and the warm-up's history.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { startService, type Service } from '../../bin/service.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { binPath } from '../helpers/service-process.js';

const ready = suite('readiness');
let service: Service | undefined;
let dataDir: string;
let key = '';

ready.before(async () => {
  dataDir = join(await tempDir(), 'data');
  mkdirSync(dataDir);
  const made = spawnSync(process.execPath,
    [binPath, 'keys', 'create', '--plan', 'Whale', '--json', '--data-dir', dataDir],
    { encoding: 'utf8' });
  assert.is(made.status, 0, made.stderr);
  key = JSON.parse(made.stdout).key as string;
});

ready.after(async () => {
  await service?.stop();
});

interface Answer { path: string; status: number; body: any }

function get(path: string): Promise<Answer> {
  return fetch(`${service!.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })
    .then(async (response) => {
      const text = await response.text();
      return { path, status: response.status, body: text ? JSON.parse(text) : null };
    });
}

ready('the first 200 of /readyz comes with every tracked pair readable', async () => {
  // The default cadence (1 s): the path a user meets, not a test-only speed-up.
  const config = resolveConfig({
    port: 0, dataDir, shards: 2, logLevel: 'silent', limitsEnabled: false,
  });
  service = await startService(config, { logger: silentLogger });
  // The tracked set is ranked from the universe before any pair publishes.
  const tracked = await eventually(async () => {
    const { status, body } = await get('/api/v1/screener');
    const symbols = status === 200
      ? (body.pairs as { symbol: string; tracked: boolean }[])
        .filter((row) => row.tracked).map((row) => row.symbol)
      : [];
    return symbols.length >= 100 ? symbols : null;
  }, { timeoutMs: 20_000, message: 'screener with the tracked pairs' });

  const notReadySeen: string[] = [];
  // The 90 s bounds a hang, it times nothing: the default 168 h warm-up runs first, and a shared
  // CI core can make it several times slower than the bench's figure.
  const sameTick = await eventually(async () => {
    const response = await fetch(`${service!.baseUrl}/readyz`);
    const body = await response.json() as { ready: boolean; checks: Record<string, boolean> };
    if (response.status !== 200) {
      assert.is(response.status, 503);
      assert.is(body.ready, false);
      notReadySeen.push(Object.keys(body.checks).filter((k) => !body.checks[k]).join(','));
      return null;
    }
    assert.is(body.checks.pairs, true);
    // Sent synchronously, in the tick that read the first 200.
    return Promise.all([
      get('/api/v1/signals'),
      get('/api/v1/history/BTC?interval=1h&limit=500'),
      fetch(`${service!.baseUrl}/api/v1/history/BTC?interval=1h&limit=24&format=arrow`,
        { headers: { authorization: `Bearer ${key}` } }).then(async (response) => ({
        path: 'history as Arrow', status: response.status,
        body: Buffer.from(await response.arrayBuffer()).toString('latin1').slice(0, 200) })),
      ...tracked.flatMap((symbol) => [
        get(`/api/v1/deep-view/${symbol}`), get(`/api/v1/cvd/${symbol}`),
        get(`/api/v1/pair/${symbol}`),
      ]),
    ]);
  }, { timeoutMs: 90_000, intervalMs: 10, message: '/readyz 200' });

  for (const answer of sameTick) {
    assert.is(answer.status, 200, `${answer.path}: ${JSON.stringify(answer.body)}`);
  }
  const signals = sameTick[0].body as Record<string, unknown>;
  for (const symbol of tracked) assert.ok(signals[symbol], `signals lacks ${symbol}`);
  // The warm-up's week is in the history from the first answer (the Pair page's charts).
  const history = sameTick[1].body as { points: unknown[] };
  assert.ok(history.points.length >= 160,
    `BTC's hourly history at ready holds ${history.points.length} hours of the 168 h warm-up`);
  const deepViews = sameTick.filter((a) => a.path.includes('/deep-view/'));
  assert.is(deepViews.length, tracked.length);
  for (const answer of deepViews) assert.type(answer.body.symbol, 'string', answer.path);
  // Before the first 200, /readyz named what it waited for.
  for (const names of notReadySeen) assert.ok(names.length > 0, 'a 503 names its failed check');
});

ready.run();
