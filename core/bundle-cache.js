// Content-addressed esbuild bundles of the TypeScript sources, kept under
// node_modules/.cache/orderflow/<name>/. Loading one bundle is 3-4x faster than transpiling ~200
// modules through tsx's loader hooks at every start, and a bundle is rebuilt only when one of
// its input files changed (checked by hashing them: ~10 ms). Plain JavaScript: it runs before
// anything can load TypeScript.
import { createHash } from 'node:crypto';
import {
  existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest folder above `from` holding this project's package.json. */
function findRoot(from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).name === 'orderflow') {
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`no orderflow package.json above ${from}`);
  }
}

/** The project's root directory. Searched for, not assumed: this file is also bundled into
 * the cache folder, from where a fixed relative path would point elsewhere. */
export const projectRoot = findRoot(dirname(fileURLToPath(import.meta.url)));
const cacheRoot = join(projectRoot, 'node_modules', '.cache', 'orderflow');
/** Builds older than this that no manifest names are removed (a long-running server may
 * still load lazy chunks from the build it started with, so nothing recent is touched). */
const pruneAfterMs = 7 * 86_400_000;

function keyOf(options, inputs) {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ node: process.version, options }));
  // Packages are inputs too (bundled ones are filtered out of the list below): the lock names
  // their exact versions.
  hash.update(readFileSync(join(projectRoot, 'package-lock.json')));
  for (const input of inputs) {
    hash.update(`\0${input}\0`);
    hash.update(readFileSync(join(projectRoot, input)));
  }
  return hash.digest('hex').slice(0, 24);
}

/** The manifest's output when every input still hashes to its key, else null. */
function cachedOutput(dir, options) {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    if (keyOf(options, manifest.inputs) !== manifest.key) return null;
    const output = join(dir, manifest.key, manifest.entryOut);
    return existsSync(output) ? output : null;
  } catch {
    return null; // no manifest yet, or an input was deleted: build again
  }
}

function prune(dir, keep) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === keep || name === 'manifest.json') continue;
    if (Date.now() - statSync(path).mtimeMs > pruneAfterMs) rmSync(path, { recursive: true });
  }
}

/** True when `error` says the cache folder cannot be written (a read-only install): callers
 *  then run without the bundle, slower but the same. */
export function cacheNotWritable(error) {
  return ['EACCES', 'EROFS', 'EPERM'].includes(error?.code);
}

/**
 * The path of the bundle of `entry` (relative to the project root), built if missing or stale.
 * `options` are esbuild build options besides entry and output. Concurrent starts are safe:
 * each builds into its own folder, renamed into place atomically.
 */
export async function cachedBundle(name, entry, options) {
  const dir = join(cacheRoot, name);
  const hit = cachedOutput(dir, options);
  if (hit) return hit;
  const { build } = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `tmp-${process.pid}-${Date.now()}`);
  const result = await build({
    ...options, entryPoints: [join(projectRoot, entry)], outdir: tmp, bundle: true,
    platform: 'node', target: 'node20', metafile: true, logLevel: 'error',
    absWorkingDir: projectRoot,
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.startsWith('node_modules/')).sort();
  const key = keyOf(options, inputs);
  const entryOut = relative(tmp, join(projectRoot, Object.entries(result.metafile.outputs)
    .find(([, output]) => output.entryPoint === entry)[0]));
  const final = join(dir, key);
  try {
    renameSync(tmp, final);
  } catch (error) {
    // Another start built the same sources first: theirs is identical, keep it.
    if (!existsSync(final)) throw error;
    rmSync(tmp, { recursive: true });
  }
  const manifestTmp = join(dir, `manifest.${process.pid}.json`);
  writeFileSync(manifestTmp, JSON.stringify({ key, inputs,
    entryOut }));
  renameSync(manifestTmp, join(dir, 'manifest.json'));
  prune(dir, key);
  return join(final, entryOut);
}
