// The repository's own files, found by walking its folders (no git needed), for the tidy tests.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const repoRoot = new URL('../..', import.meta.url).pathname;

/** Files below `folder` (relative to the root) whose names match `pattern`, as root paths. */
export function repoFilesWith(folder: string, pattern: RegExp, skip = skippedNames): string[] {
  const dir = join(repoRoot, folder);
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.filter((entry) => !skip.has(entry)).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return repoFilesWith(relative(repoRoot, path), pattern, skip);
    return pattern.test(entry) ? [relative(repoRoot, path)] : [];
  });
}

/** Installed, built or run-time folders that are not the repository's own files. */
const skippedNames = new Set(['node_modules', '.git', 'dist', 'data', '.screenshots', 'tmp']);
