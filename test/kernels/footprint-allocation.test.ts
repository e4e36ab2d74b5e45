// The footprint's trade path allocates nothing: a million trades after a warm-up run no young
// generation collection, and leave the heap where it was (crossing bars and a UTC day). Measured
// in a process of its own: in the suite's process other tests' timers and sockets allocate too.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const childPath = fileURLToPath(new URL('./footprint-allocation-child.ts', import.meta.url));

test('a million trades run no young-generation collection and keep the heap flat', () => {
  // A 1 MB young generation: an object per trade (16 MB at the least) runs dozens.
  const run = spawnSync(process.execPath,
    ['--expose-gc', '--max-semi-space-size=1', '--import', 'tsx', childPath],
    { encoding: 'utf8', timeout: 120_000 });
  assert.is(run.status, 0, run.stderr);
  const { minor, grownBytes } = JSON.parse(run.stdout) as { minor: number; grownBytes: number };
  // A few are allowed for what the process itself does meanwhile (the best of three rounds,
  // 0-7 seen in one); an object per trade runs 35.
  assert.ok(minor <= 8, `${minor} young-generation collections during 10^6 trades`);
  assert.ok(grownBytes < 1_000_000, `heap grew ${grownBytes} bytes`);
});

test.run();
