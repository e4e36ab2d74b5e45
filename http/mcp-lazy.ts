// MCP mounts that exist from the first moment the front listens, while the MCP SDK (about 1 s of
// module loading) loads in the background: until it has, they answer 503 with Retry-After: 1.
import type { RawMount } from './dispatch.js';
import { problemBody, problems } from './problems.js';

export interface LazyMounts {
  readonly mounts: readonly RawMount[];
  /** True once the real mounts took over. */
  loaded(): boolean;
  /** Closes the real mounts when they loaded (sessions and their streams). */
  close(): Promise<void>;
}

export function createLazyMounts(paths: readonly string[], methods: readonly string[],
  load: () => Promise<readonly RawMount[] & { close(): Promise<void> }>): LazyMounts {
  let real: (readonly RawMount[] & { close(): Promise<void> }) | null = null;
  const loading = load().then((mounts) => { real = mounts; });
  const notReady = problems.notReady('the MCP endpoint');
  const mounts = paths.map((path): RawMount => ({
    path,
    methods,
    handle(res, req, ctx) {
      const target = real?.find((m) => m.path === path);
      if (target) return target.handle(res, req, ctx);
      res.cork(() => {
        res.writeStatus('503 Service Unavailable');
        for (const [name, value] of notReady.headers ?? []) res.writeHeader(name, value);
        res.writeHeader('Content-Type', 'application/problem+json');
        res.end(problemBody(notReady));
      });
    },
    inFlight: () => real?.find((m) => m.path === path)?.inFlight?.() ?? 0,
  }));
  return {
    mounts,
    loaded: () => real !== null,
    async close() {
      await loading.catch(() => {});
      await real?.close();
    },
  };
}
