#!/usr/bin/env node
// The `orderflow` command. Runs a cached esbuild bundle of the TypeScript sources (rebuilt when a
// source changes; see bundle-cache.js): starting from it is 3-4x faster than transpiling every
// module through tsx. Where the cache cannot be written, the sources run through tsx instead.
import { pathToFileURL } from 'node:url';
import { cachedBundle } from './bundle-cache.js';

let entry = null;
try {
  entry = await cachedBundle('main', 'bin/main.ts', {
    format: 'esm', splitting: true, packages: 'external', sourcemap: 'linked',
  });
} catch (error) {
  if (!['EACCES', 'EROFS', 'EPERM'].includes(error.code)) throw error;
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
