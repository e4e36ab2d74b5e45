// V8 flags the service runs with. A young generation of 2 MB semi-spaces (V8's default is up to
// 16 MB each, per thread) keeps the main thread and every shard worker from holding ~40 MB of
// short-lived garbage each between scavenges: measured RSS after 60 s of the simulator at max
// speed 339-348 MB with it, 459-487 MB without. Scavenges get more frequent and stay cheap,
// because almost nothing survives them. `npm start` and the bin's shebang pass them to Node.
//
// The old generation grows to 1.5x what the last full GC left live instead of V8's up to 4x when
// the mutator allocates fast (the wallet refresh makes ~70-90 MB of garbage every 15 s with
// 10,000 wallets): not a limit, so it cannot run out of memory, only collect sooner. Measured
// after 2 min of the simulator at max speed with 10,000 wallets: RSS 554 MB without, 367 MB with.
//
// The main thread gets 4 MB semi-spaces, the shard workers keep 2 MB (issue 21): the main thread
// serves every request, and with the feed running it scavenged every ~2 MB allocated (1/s idle,
// 4-8/s under load), each a pause every poll in flight waited for; a scavenge costs what
// survives it, not the space's size, so half the scavenges are half the pause time for ~6 MB
// more young generation on one thread. 8 MB saved more but cost the memory target: RSS after
// the memory bench's sim run 526 MB with 8 MB, 481 MB with 4 MB (target < 500 MB). V8 sizes a
// thread's heap from the flags when the thread starts, so bin/orderflow.js sets
// `workerNodeFlags` once the main thread runs: every worker started after that (the shards)
// gets them.
export const serviceNodeFlags = ['--max-semi-space-size=4', '--heap-growing-percent=50'];
export const workerNodeFlags = ['--max-semi-space-size=2'];
