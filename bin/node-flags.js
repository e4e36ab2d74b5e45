// V8 flags the service runs with. A young generation of 2 MB semi-spaces (V8's default is up to
// 16 MB each, per thread) keeps the main thread and every shard worker from holding ~40 MB of
// short-lived garbage each between scavenges: measured RSS after 60 s of the simulator at max
// speed 339-348 MB with it, 459-487 MB without. Scavenges get more frequent and stay cheap,
// because almost nothing survives them. `npm start` and the bin's shebang pass them to Node.
export const serviceNodeFlags = ['--max-semi-space-size=2'];
