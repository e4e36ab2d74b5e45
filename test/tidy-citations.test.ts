// The tidy test for citations: every file a comment, document or script names is in the
// repository (or in an installed dependency), so a reader can follow each reason to its text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import ts from 'typescript';
import { repoFilesWith, repoRoot } from './helpers/repo-files.js';

const everyFile = repoFilesWith('.', /./);
const code = /\.(ts|tsx|js|mjs)$/;
const cited = everyFile.filter((f) => code.test(f) || f.endsWith('.md') || f === '.ci/run');
const names = new Set(everyFile.map((f) => basename(f)));
const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const dependencies = Object.keys({ ...packageJson.dependencies, ...packageJson.devDependencies });

/** The comments of a script: the scanner's tokens, re-read where a regex or template goes on. */
function commentsOf(file: string, text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false,
    file.endsWith('x') ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard, text);
  const comments: string[] = [];
  const templateBraces: number[] = [];
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia ||
      kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      comments.push(scanner.getTokenText());
      continue;
    }
    if (kind === ts.SyntaxKind.NewLineTrivia || kind === ts.SyntaxKind.WhitespaceTrivia) continue;
    if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) &&
      !endsOperand(previous)) kind = scanner.reScanSlashToken();
    if (kind === ts.SyntaxKind.TemplateHead) templateBraces.push(0);
    else if (kind === ts.SyntaxKind.OpenBraceToken && templateBraces.length > 0) {
      templateBraces[templateBraces.length - 1] += 1;
    } else if (kind === ts.SyntaxKind.CloseBraceToken && templateBraces.at(-1) === 0) {
      kind = scanner.reScanTemplateToken(false);
      if (kind === ts.SyntaxKind.TemplateTail) templateBraces.pop();
    } else if (kind === ts.SyntaxKind.CloseBraceToken && templateBraces.length > 0) {
      templateBraces[templateBraces.length - 1] -= 1;
    }
    previous = kind;
  }
  return comments;
}

/** Whether a token can end an operand, after which a slash divides rather than opens a regex. */
const endsOperand = (kind: ts.SyntaxKind) => kind === ts.SyntaxKind.Identifier ||
  kind === ts.SyntaxKind.CloseParenToken || kind === ts.SyntaxKind.CloseBracketToken ||
  kind === ts.SyntaxKind.NumericLiteral || kind === ts.SyntaxKind.StringLiteral ||
  kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral || kind === ts.SyntaxKind.TemplateTail ||
  kind === ts.SyntaxKind.ThisKeyword || kind === ts.SyntaxKind.PlusPlusToken ||
  kind === ts.SyntaxKind.MinusMinusToken;

/** The prose of a file in which citations are looked for: comments of code, all of the rest. */
const proseOf = (file: string) => {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  return (code.test(file) ? commentsOf(file, text) : [text]).join('\n')
    .replace(/\b[a-z][\w+.-]*:\/\/\S+/g, ' ');
};

// A path or a name that ends like a document or a script: a folder path, `../` paths, a bare name.
const citation = /(?<![\w/.-])(?:\.{1,2}\/)*(?:[\w@.-]+\/)*[\w-][\w.-]*\.(?:md|ts|tsx|js|mjs)\b/g;
const exists = (path: string) => existsSync(path) || existsSync(path.replace(/\.js$/, '.ts'));

/** Whether `name`, cited in `file`, names a file of the repository or of a dependency. */
function isInRepository(file: string, name: string): boolean {
  if (name.startsWith('.')) {
    // Relative to the citing file, or to the root (a document's examples run from there).
    return [join(dirname(file), name), name].map(normalize)
      .some((path) => !path.startsWith('..') && exists(join(repoRoot, path)));
  }
  const path = normalize(name);
  if (!path.includes('/')) {
    return names.has(path) || names.has(path.replace(/\.js$/, '.ts')) ||
      dependencies.includes(path);
  }
  return everyFile.some((f) => f === path || f.endsWith(`/${path}`) ||
    f === path.replace(/\.js$/, '.ts') || f.endsWith(`/${path.replace(/\.js$/, '.ts')}`)) ||
    dependencies.some((d) => exists(join(repoRoot, 'node_modules', d, path)));
}

// A numbered section of a text that is not in the repository (the design brief's API contract).
const outsideSection = /\bspec sections? \d|\bA§\d/;

test('there are files whose citations are checked', () => {
  assert.ok(cited.length > 100, `found ${cited.length}`);
});

test('every file a comment, document or script cites is in the repository', () => {
  const missing = cited.flatMap((file) => [...proseOf(file).matchAll(citation)]
    .filter((m) => !isInRepository(file, m[0])).map((m) => `${file} cites ${m[0]}`));
  assert.equal(missing, []);
});

test('no comment, document or script cites a section of a text outside the repository', () => {
  const outside = cited.filter((file) => outsideSection.test(proseOf(file)))
    .map((file) => `${file}: ${proseOf(file).match(outsideSection)?.[0]}`);
  assert.equal(outside, []);
});

test('a citation outside the repository is caught (the check can fail)', () => {
  assert.not.ok(isInRepository('http/server.ts', 'OUTSIDE.md'));
  assert.not.ok(isInRepository('docs/api.md', ['..', '..', 'brief', 'spec.md'].join('/')));
  assert.not.ok(isInRepository('http/server.ts', 'docs/nowhere.md'));
  assert.ok(isInRepository('http/server.ts', 'docs/decisions.md'));
  assert.ok(isInRepository('docs/api.md', './decisions.md'));
  assert.ok(isInRepository('bench/lib/peer-process.ts', 'lib/fastify-peer.ts'));
});

test.run();
