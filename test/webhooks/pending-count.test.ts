// The outbox's pending count under a recount that lands between a local write's commit and its
// adjustment (the command line changed an endpoint while a sweep was committing): counted once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PendingCount } from '../../actors/webhooks/pending-count.js';

/** A store whose count moves when a write commits, before the writer hears back. */
function fakeStore(initial: number) {
  let stored = initial;
  return {
    count: () => stored,
    commit: (delta: number) => { stored += delta; },
  };
}

test('a recount during a write waits for it: the commit is counted once', async () => {
  const store = fakeStore(7);
  const pending = new PendingCount(store.count);
  pending.recount();
  let commitSeen!: () => void;
  const committed = new Promise<void>((resolve) => { commitSeen = resolve; });
  let resume!: () => void;
  const write = pending.write(0, async () => {
    store.commit(-5); // a sweep dead-letters five
    commitSeen();
    await new Promise<void>((resolve) => { resume = resolve; });
    return 5;
  }, (dead) => -dead);
  await committed;
  pending.recount(); // an admin change elsewhere
  assert.is(pending.value, 7, 'not recounted while the write is settling');
  resume();
  await write;
  assert.is(pending.value, 2);
  assert.is(store.count(), 2);
});

test('a publish reserves its deliveries at once and keeps them only if written', async () => {
  const store = fakeStore(0);
  const pending = new PendingCount(store.count);
  pending.recount();
  const seen: number[] = [];
  await pending.write(3, async () => { seen.push(pending.value); store.commit(3); return true; },
    (written) => (written ? 3 : 0));
  assert.equal(seen, [3]);
  assert.is(pending.value, 3);
  await pending.write(2, async () => false, (written) => (written ? 2 : 0));
  assert.is(pending.value, 3, 'a refused write gives its reservation back');
  await pending.write(2, async () => { throw new Error('disk full'); }, () => 2).then(
    () => assert.unreachable('the error reaches the caller'),
    (error: Error) => assert.is(error.message, 'disk full'));
  assert.is(pending.value, 3, 'a failed write gives its reservation back');
});

test('with no write in flight a recount reads the store at once', () => {
  const store = fakeStore(4);
  const pending = new PendingCount(store.count);
  pending.recount();
  store.commit(-4); // the command line removed the endpoint
  pending.recount();
  assert.is(pending.value, 0);
});

test.run();
