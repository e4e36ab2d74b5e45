// Worker-thread entry of a shard: comedy `require`s its actor definition by module path, and a
// worker inherits no loader hooks, so this registers tsx's require hook before loading the
// TypeScript shard actor.
require('tsx/cjs');
module.exports = require('./shard-actor.ts').default;
