// comedy and its worker entry load from esbuild bundles; the shard bundle is a stub on the main
// thread (comedy requires it there only to name the actor). The supervisor suite runs real
// shards through both; this suite checks what it cannot see.
import { createRequire } from 'node:module';
import workerThreads, { Worker } from 'node:worker_threads';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadComedy } from '../../actors/runtime/comedy-loader.js';
import { shardBundlePath } from '../../actors/runtime/shard-bundle.js';

const loader = suite('comedy loader');
const require = createRequire(import.meta.url);

loader('comedy loads once, from the bundle cache, and gives worker_threads its Worker back',
  async () => {
    const [first, second] = await Promise.all([loadComedy(), loadComedy()]);
    assert.is(first, second);
    assert.type(first.createSystem, 'function');
    assert.is(workerThreads.Worker, Worker);
    const cached = Object.keys(require.cache).filter((path) => path.includes('.cache/orderflow/'));
    assert.ok(cached.some((path) => path.includes('/comedy/')), cached.join(', '));
  });

loader('the shard bundle runs nothing on the main thread: it exports an empty class', async () => {
  const exported = require(await shardBundlePath()) as new () => object;
  assert.type(exported, 'function');
  assert.equal(Object.getOwnPropertyNames(exported.prototype), ['constructor']);
});

loader.run();
