// The tidy test: keeps the layering and the house style that a reviewer would otherwise police.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { repoFilesWith as sourceFilesWith, repoRoot as root } from './helpers/repo-files.js';

const sourceFolders = [
  'core', 'actors', 'kernels', 'http', 'persistence', 'scale-out', 'bin', 'bench', 'test',
  'examples',
];

function sourceFiles(folder: string): string[] {
  return sourceFilesWith(folder, /\.(ts|js)$/);
}

const files = sourceFolders.flatMap(sourceFiles);
// Static imports and re-exports (over several lines too), side-effect imports, dynamic imports.
const importsOf = (text: string) =>
  [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);

test('there are source files to check', () => {
  assert.ok(files.length > 10, `found ${files.length}`);
});

test('kernels/ imports only kernels/ (no node:*, no packages) and reads no clock', () => {
  for (const file of files.filter((f) => f.startsWith('kernels/'))) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const spec of importsOf(text)) {
      const allowed = spec.startsWith('./') || spec === 'tdigest';
      assert.ok(allowed, `${file} imports '${spec}'`);
    }
    assert.not.match(text, /\bDate\.now\(|new Date\(|performance\.now\(|process\./,
      `${file} reads the clock or the process`);
  }
});

// The layer rule (docs/architecture.md): data flows venue -> shards -> snapshots -> front, and
// each layer imports only the layers listed for it. scale-out/ (the Redis roles) sits on the
// one-box service's layers; bin/ is the composition root and may import any layer; bench/, test/
// and examples/ stand outside and may import anything.
const layerImports: Record<string, string[]> = {
  core: ['core'],
  kernels: ['kernels'],
  persistence: ['persistence', 'core'],
  actors: ['actors', 'core', 'kernels', 'persistence'],
  http: ['http', 'core', 'persistence', 'actors'],
  'scale-out': ['scale-out', 'core', 'kernels', 'persistence', 'actors', 'http'],
  bin: ['bin', 'core', 'kernels', 'persistence', 'actors', 'http', 'scale-out'],
};

/** The repository file a relative import names (`.js` specifiers name `.ts` sources). */
function resolveImport(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const target = relative(root, join(root, dirname(file), spec));
  if (files.includes(target)) return target;
  const ts = target.replace(/\.js$/, '.ts');
  return files.includes(ts) ? ts : target;
}

const layerOf = (file: string) => file.split('/')[0];

test('every import points down the layers (no upward import)', () => {
  for (const file of files.filter((f) => layerOf(f) in layerImports)) {
    const allowed = layerImports[layerOf(file)];
    for (const spec of importsOf(readFileSync(join(root, file), 'utf8'))) {
      const target = resolveImport(file, spec);
      if (target === undefined) continue;
      assert.ok(allowed.includes(layerOf(target)),
        `${file} imports '${spec}' (${layerOf(target)}/ is not below ${layerOf(file)}/)`);
    }
  }
});

/** Import cycles among source files, type-only imports included: each as a path a -> ... -> a. */
function importCycles(sources: string[]): string[][] {
  const known = new Set(sources);
  const edges = new Map(sources.map((file) => [file,
    importsOf(readFileSync(join(root, file), 'utf8'))
      .map((spec) => resolveImport(file, spec))
      .filter((t): t is string => t !== undefined && known.has(t))]));
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of sources) if (!state.has(file)) visit(file);
  return cycles;
}

test('no import cycle anywhere', () => {
  const cycles = importCycles(files);
  assert.equal(cycles.map((c) => c.join(' -> ')), []);
});

test('no console.log outside the command line, benches and examples', () => {
  for (const file of files.filter((f) => /^(actors|kernels|http|persistence)\//.test(f))) {
    const text = readFileSync(join(root, file), 'utf8');
    assert.not.match(text, /console\.log\(/, `${file} uses console.log`);
  }
});

// The marker is spelled in two parts so that this file does not match itself.
const fixMarker = new RegExp('FIX' + 'ME');

test('no fix-me markers and no line over 100 characters in source', () => {
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      assert.not.match(line, fixMarker, `${file}:${i + 1} has a fix-me marker`);
      // A shebang cannot wrap (the bin's carries the malloc settings and the Node flags).
      const shebang = i === 0 && line.startsWith('#!');
      assert.ok(shebang || line.length <= 100,
        `${file}:${i + 1} is ${line.length} characters long`);
    });
  }
});

test('every source file opens with a purpose comment', () => {
  for (const file of files.filter((f) => f.endsWith('.ts'))) {
    const first = readFileSync(join(root, file), 'utf8').split('\n')[0];
    assert.ok(/^(\/\/|\/\*|#!)/.test(first), `${file} does not open with a comment`);
  }
});

// Spelled in parts so that this file does not match itself.
const outsideRef = new RegExp(['\\.\\./', 'shared', '\\b'].join(''));

test('no source, test, bench or doc refers to a folder beside the checkout', () => {
  const markdown = /\.md$/;
  const docs = ['README.md', ...sourceFilesWith('docs', markdown),
    ...sourceFilesWith('bench', markdown)];
  for (const file of [...files, ...docs, 'package.json', '.ci/run']) {
    const text = readFileSync(join(root, file), 'utf8');
    assert.not.match(text, outsideRef, `${file} refers to a folder outside the repository`);
  }
});

// Git's tracked files say which folders are the repository's own: installed, built and
// test-written ones (node_modules, dist, screenshots, data) are ignored by it.
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');

/** The folders directly inside `folder` that hold tracked files. */
const foldersIn = (folder: string) => readdirSync(join(root, folder), { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== '.git')
  .map((e) => e.name)
  .filter((name) => {
    const prefix = folder === '.' ? `${name}/` : `${folder}/${name}/`;
    return tracked.some((file) => file.startsWith(prefix));
  });

test("README's Layout lists every top-level folder", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const layout = readme.slice(readme.indexOf('## Layout'));
  for (const folder of foldersIn('.')) {
    assert.match(layout, new RegExp(`^${folder.replace('.', '\\.')}/ `, 'm'),
      `README's Layout does not list ${folder}/`);
  }
});

// Tests that span rooms: the whole service, the command line, and what tests share.
const crossCuttingTests = ['e2e', 'cli', 'helpers', 'fixtures'];

test('every test folder is named after the room it tests', () => {
  const rooms = new Set([...foldersIn('.'),
    ...['actors', 'http', 'bin'].flatMap((folder) => foldersIn(folder))]);
  for (const folder of foldersIn('test')) {
    assert.ok(rooms.has(folder) || crossCuttingTests.includes(folder),
      `test/${folder}/ names no source folder`);
  }
});

test.run();
