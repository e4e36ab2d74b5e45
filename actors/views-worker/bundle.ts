// The views worker's code as one CommonJS file (esbuild, cached by content like the shard's,
// actors/runtime/shard-bundle.ts): a worker inherits no loader hooks, so TypeScript must be
// JavaScript for it.
import { cachedBundle } from '../../core/bundle-cache.js';

let built: Promise<string> | null = null;

/** The bundle's absolute path; looked up (or built) once per process. */
export function viewsWorkerBundlePath(): Promise<string> {
  built ??= cachedBundle('views-worker', 'actors/views-worker/worker.ts', {
    format: 'cjs', sourcemap: 'linked', sourcesContent: false, outExtension: { '.js': '.cjs' },
  });
  return built;
}
