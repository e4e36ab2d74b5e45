// Builds the dashboard (web/src) with esbuild into web/dist: hashed files under assets/ and an
// index.html that loads them (no inline script, nothing from another host). Run by npm's
// postinstall, so `npm ci` in a fresh clone leaves the pages ready to serve.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'assets'), { recursive: true });
const result = await build({
  entryPoints: [join(here, 'src', 'main.tsx')],
  bundle: true, minify: true, format: 'esm', target: 'es2020', metafile: true,
  outdir: join(dist, 'assets'), entryNames: 'app-[hash]', assetNames: '[name]-[hash]',
  jsx: 'automatic', jsxImportSource: 'preact', logLevel: 'warning', legalComments: 'none',
});
const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
const js = outputs.find((name) => name.endsWith('.js'));
const css = outputs.find((name) => name.endsWith('.css'));
// The icon keeps a fixed name: browsers ask for it before (and without) reading the page.
copyFileSync(join(here, 'public', 'favicon.svg'), join(dist, 'favicon.svg'));
writeFileSync(join(dist, 'index.html'), `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark light">
<title>orderflow</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/${css}">
<script type="module" src="/assets/${js}"></script>
</head>
<body>
<div id="app"><noscript>The orderflow dashboard needs JavaScript.</noscript></div>
</body>
</html>
`);
console.log(`dashboard built: ${js}, ${css}`);
