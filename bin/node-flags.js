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
// The main thread keeps 2 MB semi-spaces too. Issue 21 tried larger ones for the main thread
// (it serves every request, and each scavenge is a pause the polls in flight wait for), but
// the memory target decided: RSS after the memory bench's sim run (10,000 wallets) was 523 and
// 526 MB with 8 MB, 503-523 MB with 4 MB, 470-483 MB with 2 MB (target < 500 MB).
// `workerNodeFlags` stays: bin/orderflow.js sets it once the main thread runs, so every worker
// started after that (the shards) gets these flags whatever the main thread was started with.
export const serviceNodeFlags = ['--max-semi-space-size=2', '--heap-growing-percent=50'];
export const workerNodeFlags = ['--max-semi-space-size=2'];
