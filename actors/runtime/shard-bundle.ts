// Builds the code a shard worker runs into one CommonJS file with esbuild. A worker inherits no
// loader hooks, so TypeScript must be turned into JavaScript for it; one bundle does that once
// instead of transpiling every module in every worker, and scope-hoists the kernels, where tsx's
// require hook turns every imported binding into a getter call on the kernels' hot paths. The
// bundle is cached by content (core/bundle-cache.js): a start with unchanged sources skips the
// build.
//
// comedy requires an actor's module in the parent too, only to name the actor when no name is
// given (we always give one): loading the whole bundle there would slow the main thread's
// start-up. The supervisor answers that require itself (supervisor.ts); should the bundle still
// be required on the main thread, it stops at its first line and exports an empty class (a
// CommonJS module may return early); only a worker runs the shard.
//
// The source map is a separate file: a worker applies none unless Node runs with
// --enable-source-maps (setSourceMapsEnabled on the main thread does not reach workers), and an
// inline map would make the file several times larger for every worker to read at boot.
import { cachedBundle } from '../../core/bundle-cache.js';

let built: Promise<string> | null = null;

/** The bundle's absolute path; looked up (or built) once per process. */
export function shardBundlePath(): Promise<string> {
  built ??= cachedBundle('shard', 'actors/shard/shard-actor.ts', {
    format: 'cjs', sourcemap: 'linked', sourcesContent: false, outExtension: { '.js': '.cjs' },
    // ws loads these optional native speed-ups inside try/catch.
    external: ['bufferutil', 'utf-8-validate'],
    banner: { js: "if (require('node:worker_threads').isMainThread) " +
      '{ module.exports = class ShardActor {}; return; }' },
    footer: { js: 'module.exports = module.exports.default;' },
  });
  return built;
}
