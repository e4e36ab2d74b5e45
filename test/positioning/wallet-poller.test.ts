// WalletPoller: a bounded batch per round, answers applied, failures backed off, its timer
// started and stopped.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { WalletStateEvent } from '../../core/messages.js';
import { createWalletPoller } from '../../actors/positioning/wallet-poller.js';
import { WalletTracker } from '../../actors/positioning/wallet-tracker.js';
import { eventually } from '../helpers/eventually.js';
import { addressOf, position, walletState } from './helpers.js';

const [a, b, c, d] = [1, 2, 3, 4].map(addressOf);

function trackerWith(addresses: string[]): WalletTracker {
  const tracker = new WalletTracker({ pollIntervalMs: 60_000 });
  addresses.forEach((address, i) => tracker.observeTrade(address, 100 * (i + 1), 1, 'BTC', 1));
  return tracker;
}

test('one round polls at most batchMax wallets and applies what comes back', async () => {
  const tracker = trackerWith([a, b, c, d]);
  const clock = new ManualClock(10_000);
  const asked: string[] = [];
  const poll = async (address: string): Promise<WalletStateEvent | null> => {
    asked.push(address);
    if (address === d) throw new Error('network down');
    if (address === c) return walletState(a, 1, []); // wrong wallet: a broken adapter
    return walletState(address, 5_000, [position({ symbol: 'BTC', size: 1 })], 2);
  };
  const poller = createWalletPoller({
    tracker, poll, clock, logger: silentLogger, cadenceMs: 1_000, batchMax: 3,
  });
  assert.equal(await poller.tick(), { polled: 3, applied: 1, failed: 2 });
  assert.equal(asked, [d, c, b]);
  assert.ok(tracker.record(b)!.state !== null);
  assert.is(tracker.record(c)!.state, null);
  assert.equal(await poller.tick(), { polled: 1, applied: 1, failed: 0 }, 'a is next');
  assert.equal(await poller.tick(), { polled: 0, applied: 0, failed: 0 }, 'nothing due');
  clock.advance(60_000);
  assert.equal((await poller.tick()).polled, 3, 'due again after an interval, batch bound');
  await poller.stop();
});

test('concurrent ticks share one round', async () => {
  const tracker = trackerWith([a]);
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const poller = createWalletPoller({
    tracker, clock: new ManualClock(0), logger: silentLogger, cadenceMs: 1_000, batchMax: 5,
    poll: async (address) => {
      calls++;
      await gate;
      return walletState(address, 1, []);
    },
  });
  const first = poller.tick();
  const second = poller.tick();
  release();
  assert.equal(await first, await second);
  assert.is(calls, 1);
});

test('start polls on its cadence until stopped', async () => {
  const tracker = trackerWith([a, b]);
  const poller = createWalletPoller({
    tracker, clock: new ManualClock(0), logger: silentLogger, cadenceMs: 10, batchMax: 1,
    poll: async (address) => walletState(address, 1, []),
  });
  poller.start();
  await eventually(() => tracker.records().every((r) => r.state !== null));
  await poller.stop();
});

test('bad options are refused', () => {
  const tracker = trackerWith([]);
  const base = {
    tracker, clock: new ManualClock(0), logger: silentLogger, poll: async () => null,
  };
  assert.throws(() => createWalletPoller({ ...base, cadenceMs: 0, batchMax: 1 }), /cadenceMs/);
  assert.throws(() => createWalletPoller({ ...base, cadenceMs: 10, batchMax: 0 }), /batchMax/);
});

test.run();
