// Loads comedy from an esbuild bundle, and makes its threaded actors start from another.
//
// Why: comedy is a few hundred CommonJS files to resolve and read on the main thread, and it
// starts every threaded actor's worker from its own lib/threaded-actor-worker.js, which requires
// several hundred more (babel-polyfill's core-js, bluebird, winston, underscore...): resolving
// and reading them is most of a shard worker's boot, and one bundle is read at once. comedy
// has no option for the worker's script, and it takes the Worker class from worker_threads once,
// when its module loads: so the class it sees is a subclass that swaps that one script for the
// worker bundle, in place only while comedy loads.
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import workerThreads, { Worker, type WorkerOptions } from 'node:worker_threads';
import { cacheNotWritable, cachedBundle } from '../../core/bundle-cache.js';

type Comedy = typeof import('comedy');

const require = createRequire(import.meta.url);
/** The worker script comedy starts, by file name: a bundled comedy names it next to itself. */
const workerScriptName = 'threaded-actor-worker.js';

let loaded: Promise<Comedy> | null = null;
/** Workers comedy constructed from the worker bundle, and who waits for a count of them. */
let constructed = 0;
const waiting: { atCount: number; resolve: () => void }[] = [];

/**
 * Settles once comedy has constructed `count` more workers from its bundled worker script. Never
 * settles where comedy runs unbundled (a read-only install): race it with what the workers do.
 */
export function workersConstructed(count: number): Promise<void> {
  return new Promise((resolve) => { waiting.push({ atCount: constructed + count, resolve }); });
}

function onConstructed(): void {
  constructed++;
  for (let i = waiting.length - 1; i >= 0; i--) {
    if (waiting[i]!.atCount > constructed) continue;
    waiting[i]!.resolve();
    waiting.splice(i, 1);
  }
}

/** A comedy file bundled once with what it requires (cached by content, like our bundles). */
function bundled(name: string, entry: string): Promise<string> {
  return cachedBundle(name, `node_modules/comedy/${entry}`, {
    format: 'cjs', outExtension: { '.js': '.cjs' }, minifySyntax: true, minifyWhitespace: true,
    // require-dir reads its caller from module.parent, which a bundled module does not have.
    external: ['require-dir'],
  });
}

async function load(): Promise<Comedy> {
  let bundles: [main: string, worker: string] | null = null;
  try {
    bundles = await Promise.all([bundled('comedy', 'index.js'),
      bundled('comedy-worker', `lib/${workerScriptName}`)]);
  } catch (error) {
    // A cache that cannot be written (read-only install) costs boot time, not correctness.
    if (!cacheNotWritable(error)) throw error;
  }
  if (bundles === null) return import('comedy');
  const [main, worker] = bundles;
  class BundledWorker extends Worker {
    constructor(filename: string | URL, options?: WorkerOptions) {
      const ours = typeof filename === 'string' && basename(filename) === workerScriptName;
      super(ours ? worker : filename, options);
      if (ours) onConstructed();
    }
  }
  const exports = workerThreads as { Worker: typeof Worker };
  exports.Worker = BundledWorker;
  try {
    return require(main) as Comedy;
  } finally {
    exports.Worker = Worker;
  }
}

/** comedy, loaded once per process. */
export function loadComedy(): Promise<Comedy> {
  loaded ??= load();
  return loaded;
}
