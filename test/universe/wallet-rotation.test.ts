// The simulated wallet-state schedule: each wallet once per cadence, a first full round at once,
// never more than one turn's worth per call nor more than the wall-clock budget.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { WalletRotation } from '../../actors/universe/wallet-rotation.js';

const rotation = (count: number, clock = new ManualClock(0)) => new WalletRotation({
  count, cadenceMs: 60_000, statesPerSecondMax: 1_000, statesPerTurnMax: 100, clock,
});

const takeAll = (r: WalletRotation) => {
  const seen: number[] = [];
  r.take((i) => seen.push(i));
  return seen;
};

test('the first round is due at once, drained one turn (and one budget) at a time', () => {
  const clock = new ManualClock(0);
  const r = rotation(250, clock);
  assert.is(r.backlog, 250);
  assert.equal(takeAll(r), Array.from({ length: 100 }, (_, i) => i));
  assert.equal(takeAll(r), [], 'no budget left until wall time passes');
  clock.advance(50);
  assert.is(takeAll(r).length, 50, '1,000 a second is 50 in 50 ms');
  clock.advance(10_000);
  assert.is(takeAll(r).length, 100, 'an idle wall second is not a burst');
  assert.is(r.backlog, 0);
});

test('after the first round every wallet comes once per cadence, in rotation', () => {
  const clock = new ManualClock(0);
  const r = rotation(120, clock);
  takeAll(r);
  clock.advance(1_000);
  takeAll(r);
  assert.is(r.backlog, 0);
  const seen: number[] = [];
  for (let step = 0; step < 12; step++) { // 12 x 5 s of market time = one cadence
    r.elapse(5_000);
    clock.advance(100);
    r.take((i) => seen.push(i));
  }
  assert.equal(seen, Array.from({ length: 120 }, (_, i) => i));
});

test('market time far ahead of the budget owes one round at most', () => {
  const clock = new ManualClock(0);
  const r = rotation(300, clock);
  r.elapse(3_600_000);
  assert.is(r.backlog, 300);
  r.elapse(-5);
  r.elapse(Number.NaN);
  assert.is(r.backlog, 300, 'a negative or NaN elapse changes nothing');
});

test('bad options are refused', () => {
  const clock = new ManualClock(0);
  assert.throws(() => new WalletRotation({ count: -1, cadenceMs: 1, statesPerSecondMax: 1,
    statesPerTurnMax: 1, clock }), /count/);
  assert.throws(() => new WalletRotation({ count: 1, cadenceMs: 0, statesPerSecondMax: 1,
    statesPerTurnMax: 1, clock }), /positive/);
  assert.throws(() => new WalletRotation({ count: 1, cadenceMs: 1, statesPerSecondMax: 1,
    statesPerTurnMax: 0, clock }), /positive/);
  assert.is(takeAll(rotation(0)).length, 0, 'an empty rotation hands out nothing');
});

test.run();
