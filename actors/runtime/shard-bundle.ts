// Builds the code a shard worker runs into one CommonJS file with esbuild at start-up. A worker
// inherits no loader hooks, so TypeScript must be turned into JavaScript for it; one bundle does
// that once (about 0.1 s) instead of transpiling every module in every worker, and scope-hoists
// the kernels, where tsx's require hook turned every imported binding into a getter call
// (measured 1.5-3.7x slower kernels).
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const entry = new URL('../shard/shard-actor.ts', import.meta.url).pathname;
/** Under the project's node_modules, where bundlers keep their caches by convention. */
const outDir = new URL('../../node_modules/.cache/orderflow/', import.meta.url).pathname;

let built: Promise<string> | null = null;

/** The bundle's absolute path; built once per process. */
export function shardBundlePath(): Promise<string> {
  built ??= (async () => {
    mkdirSync(outDir, { recursive: true });
    // One file per process: a concurrent build in another process never overwrites ours.
    const outfile = join(outDir, `shard-actor.${process.pid}.cjs`);
    await build({
      entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'cjs',
      target: 'node20', sourcemap: 'inline', logLevel: 'error',
      // ws loads these optional native speed-ups inside try/catch.
      external: ['bufferutil', 'utf-8-validate'],
      footer: { js: 'module.exports = module.exports.default;' },
    });
    process.once('exit', () => rmSync(outfile, { force: true }));
    return outfile;
  })();
  return built;
}
