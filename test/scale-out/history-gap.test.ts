// A front that stays connected to Redis but reads ingest's history stream slower than ingest
// trims it (docs/scale-out.md, "History on the fronts"): here stopped with SIGSTOP while the
// stream moves on and is trimmed, so no reconnection tells it anything. It notices the stream's
// first entry past its place on its next read and copies the skipped minutes from ingest; its
// pages over them end up byte for byte like ingest's. Ingest's simulator runs at 60x, so a market
// minute closes (and is appended to the stream) every wall second.
import { Redis } from 'ioredis';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, tempDir } from '../helpers/eventually.js';
import {
  startHistoryDeployment, type HistoryDeployment,
} from '../helpers/history-deployment.js';

let deployment: HistoryDeployment;

test.before(async () => {
  deployment = await startHistoryDeployment({ ORDERFLOW_SPEED: '60' });
});

test.after(async () => {
  await deployment?.stop();
});

const minutesPath = (fromIso: string, toIso: string) =>
  `/api/v1/history/BTC?interval=1m&limit=5000&start=${fromIso}&end=${toIso}` +
  '&metrics=candle,cvd,vpin';

/** The newest BTC minute ingest has recorded. */
async function newestMinute(): Promise<string> {
  const r = await deployment.get(deployment.ingest.baseUrl,
    '/api/v1/history/BTC?interval=1m&limit=5');
  assert.is(r.status, 200, r.body);
  // The last intervals: the newest may still be open, with no point yet.
  const points = JSON.parse(r.body).points as { t: string }[];
  assert.ok(points.length > 0, r.body);
  return points[points.length - 1]!.t;
}

const streamLength = async (client: Redis) => client.xlen('orderflow:history');

test('a front that reads slower than ingest trims copies the skipped minutes', async () => {
  const client = new Redis(deployment.redis.url);
  try {
    // The warm-up's entries gone before the front starts: its first copy brings them.
    const recorded = await deployment.recordedRange(30);
    await client.xtrim('orderflow:history', 'MAXLEN', 1);
    const front = await deployment.startRole(['--role', 'front', '--data-dir', await tempDir()]);
    const fromIso = await newestMinute();
    // Caught up first: the first copy is done (it covers whatever ingest holds when it ends; the
    // warm-up's minutes on the front say it ran) and the front holds ingest's newest minute.
    await deployment.sameAnswers(front, [minutesPath(recorded.fromIso, fromIso)],
      'the front copied the warm-up and follows');
    await eventually(async () => JSON.parse((await deployment.get(front.baseUrl, '/readyz'))
      .body).detail?.history === undefined, { timeoutMs: 30_000, message: 'first copy done' });
    front.child.kill('SIGSTOP');
    let toIso = fromIso;
    try {
      // Entries appended while the front is stopped, then trimmed away as ingest trims the
      // stream once the backlog passes; the last stays. Five market minutes at least, in more
      // than one entry (the first may already be on its way to the stopped front, in its socket).
      const lengthBefore = await streamLength(client);
      await eventually(async () => await streamLength(client) >= lengthBefore + 3 &&
        Date.parse(await newestMinute()) - Date.parse(fromIso) >= 5 * 60_000,
      { timeoutMs: 30_000, message: 'ingest appends while the front is stopped' });
      toIso = await newestMinute();
      await client.xtrim('orderflow:history', 'MAXLEN', 1);
    } finally {
      front.child.kill('SIGCONT');
    }
    assert.ok(toIso > fromIso, `ingest moved on (${fromIso} .. ${toIso})`);
    await deployment.sameAnswers(front, [minutesPath(fromIso, toIso)],
      'the front copied the minutes it never read');
    const points = JSON.parse((await deployment.get(front.baseUrl,
      minutesPath(fromIso, toIso))).body).points as unknown[];
    assert.ok(points.length >= 5, `the front holds the ${points.length} minutes of the gap`);
  } finally {
    client.disconnect();
  }
});

test.run();
