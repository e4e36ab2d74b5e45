// The tidy test: keeps the layering and the house style that a reviewer would otherwise police.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const sourceFolders = [
  'actors', 'kernels', 'http', 'persistence', 'bin', 'bench', 'test', 'examples',
];

function sourceFiles(folder: string): string[] {
  return sourceFilesWith(folder, /\.(ts|js)$/);
}

function sourceFilesWith(folder: string, pattern: RegExp): string[] {
  const dir = join(root, folder);
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFilesWith(relative(root, path), pattern);
    return pattern.test(entry) ? [relative(root, path)] : [];
  });
}

const files = sourceFolders.flatMap(sourceFiles);
const importsOf = (text: string) =>
  [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"\n;]*?from\s*['"]([^'"]+)['"]/g),
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

test('http/ and persistence/ never import kernels/', () => {
  for (const file of files.filter((f) => /^(http|persistence)\//.test(f))) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const spec of importsOf(text)) {
      assert.not.ok(spec.includes('kernels/'), `${file} imports '${spec}'`);
    }
  }
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
      assert.ok(line.length <= 100, `${file}:${i + 1} is ${line.length} characters long`);
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

test.run();
