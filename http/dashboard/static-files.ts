// The dashboard's static files, built at install into web/dist (hashed names under /assets/):
// read once into memory, assets sent `immutable`, the page itself revalidated by ETag, all with
// the dashboard's security headers. The page routes all answer the one index.html.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { RouteRegistrar } from '../front-guard.js';
import type { TrustCheck } from '../client-ip.js';
import { Exchange } from './exchange.js';

/**
 * The page paths of the single-page app (the client routes between them). `/chart` is where an
 * entry signal's chart_url points: the page sends it on to the signal's Pair page.
 */
export const PAGE_PATHS = [
  '/', '/signin', '/market', '/signals', '/funding', '/keys', '/alerts', '/usage', '/chart',
  '/smart-money', '/wallets', '/liquidations',
] as const;
/** Pages with a path parameter: a pair (and its deep view), a wallet, a liquidation map. */
export const PAGE_PREFIXES = ['/pair/', '/wallets/', '/liquidations/'] as const;
/** The icon's paths: the page links the first; browsers ask for the second unprompted. */
export const FAVICON_PATHS = ['/favicon.svg', '/favicon.ico'] as const;

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2',
  '.html': 'text/html; charset=utf-8', '.map': 'application/json',
};

interface StaticFile {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
}

function load(path: string): StaticFile {
  const body = readFileSync(path);
  const ext = path.slice(path.lastIndexOf('.'));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, type: TYPES[ext] ?? 'application/octet-stream', etag };
}

export class StaticFiles {
  private readonly assets = new Map<string, StaticFile>();
  private readonly page: StaticFile | undefined;
  private readonly icon: StaticFile | undefined;

  constructor(distDir: string, private readonly trusted: TrustCheck) {
    const assetsDir = join(distDir, 'assets');
    if (existsSync(assetsDir)) {
      for (const name of readdirSync(assetsDir)) {
        this.assets.set(name, load(join(assetsDir, name)));
      }
    }
    const index = join(distDir, 'index.html');
    this.page = existsSync(index) ? load(index) : undefined;
    const icon = join(distDir, 'favicon.svg');
    this.icon = existsSync(icon) ? load(icon) : undefined;
  }

  get built(): boolean {
    return this.page !== undefined;
  }

  register(app: RouteRegistrar): void {
    app.get('/assets/*', this.serveAsset);
    app.head('/assets/*', this.serveAsset);
    for (const path of FAVICON_PATHS) {
      app.get(path, this.serveIcon);
      app.head(path, this.serveIcon);
    }
    for (const path of [...PAGE_PATHS, ...PAGE_PREFIXES.map((prefix) => `${prefix}*`)]) {
      app.get(path, this.servePage);
      app.head(path, this.servePage);
    }
  }

  private readonly serveAsset = (res: HttpResponse, req: HttpRequest): void => {
    const ex = new Exchange(res, req, this.trusted);
    const file = this.assets.get(ex.path.slice('/assets/'.length));
    if (file === undefined) {
      return ex.send(404, 'text/plain; charset=utf-8', 'not found\n',
        [['Cache-Control', 'no-store']]);
    }
    ex.send(200, file.type, file.body, [
      ['Cache-Control', 'public, max-age=31536000, immutable'], ['ETag', file.etag],
    ]);
  };

  /** The SVG icon at both paths (browsers take an SVG body at /favicon.ico by its type). */
  private readonly serveIcon = (res: HttpResponse, req: HttpRequest): void => {
    const ex = new Exchange(res, req, this.trusted);
    const icon = this.icon;
    if (icon === undefined) {
      return ex.send(404, 'text/plain; charset=utf-8', 'not found\n',
        [['Cache-Control', 'no-store']]);
    }
    ex.send(200, icon.type, icon.body, [
      ['Cache-Control', 'public, max-age=86400'], ['ETag', icon.etag],
    ]);
  };

  private readonly servePage = (res: HttpResponse, req: HttpRequest): void => {
    const ex = new Exchange(res, req, this.trusted);
    const page = this.page;
    if (page === undefined) {
      return ex.send(503, 'text/plain; charset=utf-8',
        'the dashboard is not built: run `npm run build:web` (npm ci does it)\n',
        [['Cache-Control', 'no-store'], ['Retry-After', '60']]);
    }
    if (ex.ifNoneMatch === page.etag) {
      return ex.send(304, page.type, '', [['Cache-Control', 'no-cache'], ['ETag', page.etag]]);
    }
    ex.send(200, page.type, page.body, [['Cache-Control', 'no-cache'], ['ETag', page.etag]]);
  };
}
