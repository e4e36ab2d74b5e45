// Dashboard bench: the account API and the static page on the real front, each against
// GET /healthz on the same server in the same run; a sign-in's scrypt check against a key's
// SHA-256 lookup digest; and the first page's gzipped JavaScript against its 150 KB budget.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DASHBOARD_DIST_DIR } from '../bin/dashboard.js';
import { digestOf, generateApiKey } from '../persistence/keys.js';
import { hashPassword, verifyPassword } from '../persistence/passwords.js';
import { Browser, startDashboardServer } from '../test/dashboard/dashboard-server.js';
import { measureAsync, printRows, quick, type ReportRow } from './harness.js';
import { getText } from './lib/http-get.js';

const FIRST_PAGE_JS_BUDGET_KB = 150;

function row(figure: string, value: number, unit: string, baseline: number | null,
  target: string, pass: boolean | null, ratio = baseline === null ? null : value / baseline):
  ReportRow {
  return { bench: 'dashboard', figure, value, unit, baseline, ratio, target, pass };
}

/** The gzipped size of the JavaScript index.html loads, in KB. */
function firstPageJsKb(): number {
  const assets = join(DASHBOARD_DIST_DIR, 'assets');
  const js = readdirSync(assets).filter((name) => name.endsWith('.js'));
  return js.reduce((sum, name) => sum + gzipSync(readFileSync(join(assets, name))).length, 0) /
    1024;
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const server = await startDashboardServer();
  try {
    const password = 'bench passphrase 1';
    await server.createAccount('bench@example.com', password, 'Pro');
    const browser = new Browser(server.baseUrl);
    await browser.signIn('bench@example.com', password);
    const cookie = { cookie: browser.cookie };
    const n = opts.quick ? 300 : 2_000;
    const sequential = (url: string, headers: Record<string, string> = {}) =>
      async (ops: number) => {
        for (let i = 0; i < ops; i++) {
          const r = await getText(url, headers);
          if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
        }
      };
    const health = await measureAsync('healthz', n, sequential(`${server.baseUrl}/healthz`));
    const keys = await measureAsync('account keys', n,
      sequential(`${server.baseUrl}/api/v1/account/keys`, cookie));
    const page = await measureAsync('page', n, sequential(`${server.baseUrl}/market`));
    const digest = await hashPassword(password);
    const signIns = opts.quick ? 5 : 20;
    const scrypt = await measureAsync('scrypt verify', signIns, async (ops) => {
      for (let i = 0; i < ops; i++) await verifyPassword(password, digest);
    });
    const key = generateApiKey();
    const sha = await measureAsync('sha-256 key digest', 10_000, async (ops) => {
      for (let i = 0; i < ops; i++) digestOf(key);
    });
    const jsKb = firstPageJsKb();
    return [
      row('GET /api/v1/account/keys (session), req/s', keys.opsPerSec, 'req/s', health.opsPerSec,
        'context: ratio to /healthz on the same front', null),
      row('GET /market (static page), req/s', page.opsPerSec, 'req/s', health.opsPerSec,
        'context: ratio to /healthz on the same front', null),
      row('sign-in password check (scrypt), ms', scrypt.nsPerOp / 1e6, 'ms', sha.nsPerOp / 1e6,
        'deliberately dear: >= 10 ms a guess', scrypt.nsPerOp / 1e6 >= 10),
      row('first page JavaScript, gzipped', jsKb, 'KB', FIRST_PAGE_JS_BUDGET_KB,
        `< ${FIRST_PAGE_JS_BUDGET_KB} KB`, jsKb < FIRST_PAGE_JS_BUDGET_KB),
    ];
  } finally {
    await server.close();
  }
}

if (process.argv[1]?.endsWith('dashboard.bench.ts')) printRows(await run({ quick }));
