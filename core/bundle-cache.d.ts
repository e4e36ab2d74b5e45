// Types of bundle-cache.js (plain JavaScript: it runs before TypeScript can be loaded).
import type { BuildOptions } from 'esbuild';

export declare const projectRoot: string;
export declare function cachedBundle(
  name: string, entry: string, options: BuildOptions,
): Promise<string>;
export declare function cacheNotWritable(error: unknown): boolean;
