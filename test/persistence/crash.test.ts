// Crash safety: kill -9 a writer at random points, at least 20 times, and check after each kill
// that every acknowledged key, revocation, plan change and usage count survived.
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import type { Plan } from '../../core/messages.js';
import { openStore } from '../../persistence/store.js';
import { tempDir } from '../helpers/eventually.js';
import { ackedOf, runCrashCycles, type CrashHistory } from './crash-harness.js';

const childPath = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const clockStartMs = Date.parse('2026-10-25T01:30:00Z');
const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);

/** Plans a key may hold now: its last acknowledged one, or one set by a later unacked attempt. */
function allowedPlans(history: CrashHistory, prefix: string): Set<Plan> {
  let allowed = new Set<Plan>();
  for (const { phase, record } of history.events) {
    if (record.prefix !== prefix && record.kind !== 'key.create') continue;
    if (record.kind === 'key.create' && record.prefix === prefix) {
      allowed = new Set([record.plan as Plan]);
    }
    if (record.kind !== 'key.plan' || record.prefix !== prefix) continue;
    if (phase === 'ack') allowed = new Set([record.plan as Plan]);
    else allowed.add(record.plan as Plan);
  }
  return allowed;
}

/** Per identity: the last acknowledged count (a floor) and the last begun count (a ceiling). */
function usageBounds(history: CrashHistory): Map<string, { floor: number; ceiling: number }> {
  const bounds = new Map<string, { floor: number; ceiling: number }>();
  for (const { phase, record } of history.events) {
    if (record.kind !== 'usage') continue;
    const key = `${record.identity}|${record.dayKey}`;
    const entry = bounds.get(key) ?? { floor: 0, ceiling: 0 };
    if (phase === 'ack') entry.floor = record.count as number;
    entry.ceiling = Math.max(entry.ceiling, record.count as number);
    bounds.set(key, entry);
  }
  return bounds;
}

async function verifyStore(dataDir: string, history: CrashHistory, cycle: number): Promise<void> {
  const store = await openStore({
    dataDir, clock: new ManualClock(clockStartMs), readOnly: true, watchKeys: false,
  });
  try {
    const where = `after kill ${cycle} (seed ${seed})`;
    for (const created of ackedOf(history, 'key.create')) {
      const record = store.keys.byPrefix(created.prefix as string);
      assert.ok(record, `acknowledged key ${created.prefix} lost ${where}`);
      assert.is(record.digest, created.digest, `digest of ${created.prefix} ${where}`);
      const allowed = allowedPlans(history, record.prefix);
      assert.ok(allowed.has(record.plan), `plan ${record.plan} of ${record.prefix} not in ` +
        `${[...allowed].join(',')} ${where}`);
    }
    for (const revoked of ackedOf(history, 'key.revoke')) {
      const record = store.keys.byPrefix(revoked.prefix as string);
      assert.ok(record?.revokedAtMs !== null, `revocation of ${revoked.prefix} lost ${where}`);
    }
    for (const [key, { floor, ceiling }] of usageBounds(history)) {
      const [identity, dayKey] = key.split('|');
      const stored = store.usage.get(identity, dayKey);
      assert.ok(stored >= floor, `usage ${key} ${stored} below acknowledged ${floor} ${where}`);
      assert.ok(stored <= ceiling, `usage ${key} ${stored} above counted ${ceiling} ${where}`);
    }
  } finally {
    await store.close();
  }
}

async function rejects(body: () => Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await body().then(() => null, (e: unknown) => e as Error);
  assert.ok(error, `expected a rejection matching ${pattern}`);
  assert.match(error.message, pattern);
}

test('nothing acknowledged is lost across 20+ kill -9 at random points', async () => {
  const dataDir = await tempDir('orderflow-crash-');
  const history = await runCrashCycles({
    command: (cycle) => [process.execPath, '--import', 'tsx', childPath, dataDir,
      String(seed * 100 + cycle), String(clockStartMs)],
    cycles: 20, acksBeforeKillMax: 10, killDelayMsMax: 15, seed,
    verify: (h, cycle) => verifyStore(dataDir, h, cycle),
  });
  assert.ok(history.kills >= 20, `only ${history.kills} kills (seed ${seed})`);
  for (const kind of ['key.create', 'key.revoke', 'key.plan', 'usage']) {
    assert.ok(ackedOf(history, kind).length > 0, `no ${kind} was acknowledged (seed ${seed})`);
  }
});

test('the checks catch a lost acknowledgement', async () => {
  const dataDir = await tempDir('orderflow-crash-');
  const store = await openStore({ dataDir, clock: new ManualClock(clockStartMs) });
  await store.close();
  const history: CrashHistory = { kills: 1, events: [
    { phase: 'ack', cycle: 0, record: { kind: 'key.create', prefix: 'ofk_deadbeef', digest: 'x' } },
  ] };
  await rejects(() => verifyStore(dataDir, history, 0), /ofk_deadbeef lost/);
  const usage: CrashHistory = { kills: 1, events: [
    { phase: 'ack', cycle: 0, record: { kind: 'usage', identity: 'ip:1', dayKey: '2026-10-25',
      count: 3 } },
  ] };
  await rejects(() => verifyStore(dataDir, usage, 0), /below acknowledged 3/);
});

test.run();
