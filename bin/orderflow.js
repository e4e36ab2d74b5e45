#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=1048576:glibc.malloc.mmap_threshold=262144 node --max-semi-space-size=2 --heap-growing-percent=50 --no-memory-reducer
// The `orderflow` command. Runs a cached esbuild bundle of the TypeScript sources (rebuilt when a
// source changes; see bundle-cache.js): starting from it is 3-4x faster than transpiling every
// module through tsx. Where the cache cannot be written, the sources run through tsx instead.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { cacheNotWritable, cachedBundle, projectRoot } from '../core/bundle-cache.js';
import { serviceNodeFlags, workerNodeFlags } from './node-flags.js';

// Started as `node bin/orderflow.js` without them: the threads created from now on (the shard
// workers) still get them; the main thread's heap was sized when Node started.
for (const flag of serviceNodeFlags) {
  if (!process.execArgv.includes(flag)) setFlagsFromString(flag);
}
// The main thread's heap is sized by now: these reach only the threads started later (the shard
// workers' young generation stays small; see node-flags.js).
for (const flag of workerNodeFlags) setFlagsFromString(flag);

// The MCP SDK and zod go into the bundle: loading their ~150 ES modules one by one took 2-3x as
// long, on the main thread, while the service starts. Every other package stays a package
// (native addons; comedy, lmdb and tsx load files by path at run time).
const bundledPackages = ['@modelcontextprotocol/sdk', 'zod'];
// ajv and ajv-formats (0.3-0.4 s of loading) are imported by the SDK for a default the MCP
// sessions replace (http/mcp/no-schema-validator.ts): the bundle gets a stub that throws.
const noAjv = { ajv: './bin/no-ajv.js', 'ajv-formats': './bin/no-ajv.js' };
// zod's locales index: English only (bin/zod-locales.js).
const zodLocales = {
  name: 'zod-locales-en',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      (args.importer.includes('/node_modules/zod/')
        ? { path: join(projectRoot, 'bin', 'zod-locales.js') } : undefined));
  },
};
const { dependencies } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
const unbundledPackages = Object.keys(dependencies)
  .filter((name) => !bundledPackages.includes(name) && !(name in noAjv));

let entry = null;
try {
  entry = await cachedBundle('main', 'bin/main.ts', {
    // Maps without the sources' text: Node reads the maps of every module it loads (a third
    // of their bytes); traces only need the mappings.
    format: 'esm', splitting: true, sourcemap: 'linked', sourcesContent: false,
    external: unbundledPackages, alias: noAjv, plugins: [zodLocales],
  });
} catch (error) {
  if (!cacheNotWritable(error)) throw error;
}
if (entry) {
  // Stack traces name the TypeScript files and lines, not the bundle's.
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(entry).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./main.ts');
}
