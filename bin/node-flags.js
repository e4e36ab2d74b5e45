// How the service's process is started: `npm start` and the bin's shebang pass these, and the
// benches and tests start the service with them, so they measure what users run
// (docs/architecture.md, "Node flags and malloc"; the figures are in bench/README.md, Memory).
//
// V8: 2 MB young-generation semi-spaces on every thread (V8's default grows to 16 MB each, and
// each thread then holds tens of MB of short-lived garbage between scavenges), and an old
// generation that grows to 1.5x what the last full GC left live instead of up to 4x (not a
// limit: it collects sooner, it cannot run out). No memory reducer: once allocation slows (after
// the start-up, after a burst of requests) it ran up to three full GCs in a row that compact
// every page, 17-31 ms each on the main thread; the regular full GCs still return free pages.
export const serviceNodeFlags = ['--max-semi-space-size=2', '--heap-growing-percent=50',
  '--no-memory-reducer'];
/** Set by bin/orderflow.js once running, so the workers get them however Node was started. */
export const workerNodeFlags = ['--max-semi-space-size=2'];

// glibc's malloc, read once when the process starts (an environment variable, not a flag):
// two arenas instead of one per thread (8 x cores), freed memory at the top of a heap returned
// above 1 MB instead of 128 kB, and blocks of 256 kB and more (typed arrays, response bodies)
// in their own mappings that go back to the system when freed, instead of a threshold that
// rises with the largest block freed. The arenas of the shards, the views worker and lmdb's
// threads otherwise keep what their peaks touched.
export const serviceMallocTunables = 'glibc.malloc.arena_max=2:' +
  'glibc.malloc.trim_threshold=1048576:glibc.malloc.mmap_threshold=262144';

/** The environment to start the service in: `env` with the malloc tunables, unless it sets its
 *  own GLIBC_TUNABLES. */
export function serviceEnv(env = process.env) {
  return { ...env, GLIBC_TUNABLES: env.GLIBC_TUNABLES ?? serviceMallocTunables };
}
