// The session table on its own: LRU order, idle expiry on a manual clock, bound, ownership.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { SessionTable, type McpSession } from '../../http/mcp/sessions.js';

function setup(max = 3) {
  const clock = new ManualClock(0);
  const closed: string[] = [];
  const table = new SessionTable({ idleMs: 1_000, max, clock, logger: silentLogger });
  const open = (id: string, owner = ''): McpSession => {
    const session: McpSession = { id, mode: 'public', owner, lastSeenMs: 0,
      close: async () => void closed.push(id) };
    table.add(session);
    return session;
  };
  return { clock, closed, table, open };
}

test('use touches a session so the least recently used is evicted first', () => {
  const { table, open, closed, clock } = setup();
  open('a');
  clock.advance(10);
  open('b');
  clock.advance(10);
  open('c');
  assert.ok(table.use('a', 'public', ''));
  open('d');
  assert.equal(closed, ['b']);
  assert.is(table.size, 3);
  assert.is(table.evictedCount, 1);
});

test('sessions idle for the idle time are closed on the next sweep', () => {
  const { table, open, closed, clock } = setup();
  open('a');
  clock.advance(600);
  open('b');
  clock.advance(400);
  table.sweep();
  assert.equal(closed, ['a']);
  assert.is(table.use('a', 'public', ''), undefined);
  assert.ok(table.use('b', 'public', ''));
  clock.advance(999);
  table.sweep();
  assert.is(table.size, 1);
  assert.is(table.expiredCount, 1);
});

test('a session is only found for its own mode and owner', () => {
  const { table, open } = setup();
  open('a', 'ofk_00000001');
  assert.is(table.use('a', 'public', 'ofk_00000002'), undefined);
  assert.is(table.use('a', 'api', 'ofk_00000001'), undefined);
  assert.ok(table.use('a', 'public', 'ofk_00000001'));
  table.forget('a');
  assert.is(table.size, 0);
});

test('invalid bounds are refused', () => {
  const clock = new ManualClock(0);
  assert.throws(() => new SessionTable({ idleMs: 0, max: 1, clock, logger: silentLogger }),
    /sessionIdleMs must be a positive number \(was 0\)/);
  assert.throws(() => new SessionTable({ idleMs: 1, max: 0, clock, logger: silentLogger }),
    /sessionsMax must be a positive integer \(was 0\)/);
});

test.run();
