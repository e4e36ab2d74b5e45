// The dashboard in a real browser (Debian's chromium through puppeteer-core) against the real
// front (store, account API, webhook supervisor, uWS) with market views put in its snapshot
// store (market-fixture.ts): sign in, keys shown once, endpoints with
// a signed test event to a real receiver, rotation, the delivery log, alert forms, the market
// table's sort, a drawn Pair chart, CSRF and cross-account checks, cookie flags, CSP, axe-core,
// and a screenshot of every page in both themes (test/.screenshots/, gitignored).
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';

/** The page's globals, as seen from code that runs inside it (this file has no DOM types). */
declare const document: any, window: any, localStorage: any;
type HTMLInputElement = any;
type HTMLCanvasElement = any;
import * as assert from 'uvu/assert';
import type { Browser as Chromium, Page } from 'puppeteer-core';
import { eventually } from '../helpers/eventually.js';
import { binPath } from '../helpers/service-process.js';
import { axeFindings as axeOf, launchChromium } from './chromium.js';
import {
  Browser, startDashboardServer, startReceiver, type DashboardServer,
} from './dashboard-server.js';
import { putMarketFixture } from './market-fixture.js';

const ui = suite('dashboard in chromium');
const SHOTS = new URL('../.screenshots/', import.meta.url).pathname;
const PASSWORD = 'correct horse battery';
let service: DashboardServer;
let dataDir: string;
let chromium: Chromium;
let page: Page;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const violations: string[] = [];
const state: { endpointId?: string; hookKey?: string } = {};

function users(...args: string[]) {
  return spawnSync(process.execPath, [binPath, 'users', ...args, '--data-dir', dataDir],
    { encoding: 'utf8', input: `${PASSWORD}\n` });
}

async function go(path: string): Promise<void> {
  await page.goto(service.baseUrl + path, { waitUntil: 'networkidle2' });
}

function axeFindings(): Promise<string[]> {
  return axeOf(page);
}

async function text(selector: string): Promise<string> {
  await page.waitForSelector(selector, { timeout: 15_000 });
  return page.$eval(selector, (el) => el.textContent ?? '');
}

ui.before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  receiver = await startReceiver();
  service = await startDashboardServer();
  dataDir = service.dataDir;
  putMarketFixture(service.snapshots, Date.now());
  chromium = await launchChromium();
  page = await chromium.newPage();
  await page.setViewport({ width: 1280, height: 860 });
  await page.evaluateOnNewDocument(() => {
    document.addEventListener('securitypolicyviolation', (e: any) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) {
      violations.push(message.text());
    }
  });
  page.on('dialog', (dialog) => void dialog.accept());
});

ui.after(async () => {
  await chromium?.close();
  await service?.close();
  await receiver?.close();
});

ui('the command line creates accounts, the password read from standard input', () => {
  const created = users('create', '--email', 'ana@example.com', '--plan', 'Whale');
  assert.is(created.status, 0, created.stderr);
  assert.match(created.stdout, /created acc_[0-9a-f]{16} ana@example.com \(plan Whale\)/);
  assert.is(users('create', '--email', 'bo@example.com', '--plan', 'Pro').status, 0);
  const dup = users('create', '--email', 'ana@example.com', '--plan', 'Pro');
  assert.is(dup.status, 1);
  assert.match(dup.stderr, /exists/);
  const short = spawnSync(process.execPath, [binPath, 'users', 'create', '--email', 'x@y.io',
    '--plan', 'Pro', '--data-dir', dataDir], { encoding: 'utf8', input: 'short\n' });
  assert.is(short.status, 2);
  const list = JSON.parse(users('list', '--json').stdout);
  assert.equal(list.map((a: any) => a.email), ['ana@example.com', 'bo@example.com']);
  assert.is(readFileSync(join(dataDir, 'store', 'data.mdb')).includes(PASSWORD), false);
});

ui('sign in: cookie flags, security headers, no CSP violation', async () => {
  const response = await page.goto(service.baseUrl + '/', { waitUntil: 'networkidle2' });
  const headers = response!.headers();
  assert.is(headers['content-security-policy'], "default-src 'self'; frame-ancestors 'none'");
  assert.is(headers['x-content-type-options'], 'nosniff');
  assert.is(headers['referrer-policy'], 'same-origin');
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => localStorage.setItem('orderflow.theme', t), theme);
    await page.reload({ waitUntil: 'networkidle2' });
    await page.waitForSelector('#email');
    assert.equal(await axeFindings(), [], `sign-in (${theme})`);
    await page.screenshot({ path: join(SHOTS, `signin-${theme}.png`) });
  }
  await page.type('#email', 'ana@example.com');
  await page.type('#password', 'wrong password!');
  await page.click('button[type=submit]');
  assert.match(await text('.status.error'), /wrong/);
  await page.$eval('#password', (el) => { (el as HTMLInputElement).value = ''; });
  await page.type('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForSelector('table tbody tr', { timeout: 20_000 });
  const cookie = (await page.cookies()).find((c) => c.name === 'of_session');
  assert.ok(cookie);
  assert.is(cookie.httpOnly, true);
  assert.is(cookie.sameSite, 'Lax');
  assert.is(cookie.path, '/');
  assert.is(cookie.secure, false);
});

ui('market: the table sorts by a column, both ways', async () => {
  const prices = () => page.$$eval('tbody tr td:nth-child(2)',
    (cells) => cells.map((c) => Number((c.textContent ?? '').replace(/,/g, ''))));
  await page.click('button[data-sort="price"]');
  const desc = await prices();
  assert.ok(desc.length > 1, `rows: ${desc.length}`);
  assert.equal(desc, [...desc].sort((a, b) => b - a));
  await page.click('button[data-sort="price"]');
  const asc = await prices();
  assert.equal(asc, [...asc].sort((a, b) => a - b));
});

ui('API Keys: the key is shown once; 200 with it, 401 after revoking it', async () => {
  await go('/keys');
  await page.type('#key-label', 'bot');
  await page.click('form.inline button[type=submit]');
  const key = (await text('[data-secret]')).trim();
  assert.match(key, /^ofk_[0-9a-f]{32}$/);
  await page.reload({ waitUntil: 'networkidle2' });
  await page.waitForSelector('[data-prefix]');
  assert.is(await page.$('[data-secret]'), null);
  assert.is((await page.content()).includes(key), false);
  assert.is(await text('[data-prefix]'), key.slice(0, 12));
  const usage = (k: string) => fetch(`${service.baseUrl}/api/v1/usage`,
    { headers: { authorization: `Bearer ${k}` } }).then((r) => r.status);
  assert.is(await usage(key), 200);
  await page.screenshot({ path: join(SHOTS, 'keys-dark.png'), fullPage: true });
  await page.click('button.danger');
  await eventually(async () => (await usage(key)) === 401, { message: 'revoked key refused' });
  await page.type('#key-label', 'hooks');
  await page.click('form.inline button[type=submit]');
  state.hookKey = (await text('[data-secret]')).trim();
});

ui('Alerts: endpoint secret, Send test event, signature, rotate, delivery log', async () => {
  await go('/alerts');
  await page.type('#ep-url', receiver.url);
  await page.click('form.inline button[type=submit]');
  const secret = (await text('[data-secret]')).trim();
  assert.match(secret, /^whsec_/);
  await page.waitForSelector('[data-endpoint]');
  state.endpointId = await page.$eval('[data-endpoint]', (el) => el.getAttribute('data-endpoint'))
    ?? undefined;
  const [testButton] = await page.$$('xpath/.//button[contains(., "Send test event")]');
  await testButton.click();
  await page.waitForFunction(() => /answered 200/.test(
    document.querySelector('[data-test-result]')?.textContent ?? ''), { timeout: 20_000 });
  const got = receiver.got.find((r) => /"type":"test"/.test(r.body));
  assert.ok(got, 'the receiver got the test event');
  const ts = got.headers['x-service-timestamp'] as string;
  const expected = createHmac('sha256', secret).update(`${ts}.${got.body}`).digest('hex');
  assert.is(got.headers['x-service-signature'], `v1=${expected}`);
  await page.waitForSelector('[data-event] .state.delivered');
  const [rotate] = await page.$$('xpath/.//button[contains(., "Rotate secret")]');
  await rotate.click();
  await page.waitForFunction((old) => [...document.querySelectorAll('[data-secret]')]
    .some((el) => el.textContent?.startsWith('whsec_') && el.textContent !== old),
  { timeout: 10_000 }, secret);
});

ui('Alerts: a bad threshold is a form error; a good alert is listed', async () => {
  await page.select('#alert-kind', 'price');
  await page.type('#alert-symbol', 'BTC');
  await page.type('#alert-level', 'abc');
  await page.click('form.grid-form button[type=submit]');
  assert.match(await text('.field-error'), /Price level must be a positive number/);
  assert.is(await page.$('[data-alert]'), null);
  await page.$eval('#alert-level', (el) => { (el as HTMLInputElement).value = ''; });
  await page.type('#alert-level', '65000');
  await page.click('form.grid-form button[type=submit]');
  await page.waitForSelector('[data-alert]');
  assert.match(await text('[data-alert]'), /price\s*BTC/);
  assert.is(await text('[data-alert] td:nth-child(3)'), 'level 65,000 · direction above');
  await page.screenshot({ path: join(SHOTS, 'alerts-dark.png'), fullPage: true });
});

ui("Pair: an entry signal's chart_url opens it at the bar; the chart canvas is drawn", async () => {
  const at = new Date(Date.now() - 3_600_000).toISOString();
  await go(`/chart?symbol=SOL&timeframe=15m&signal=SOL-15m-1-long&at=${encodeURIComponent(at)}`);
  await page.waitForSelector('main h1');
  assert.is(new URL(page.url()).pathname, '/pair/SOL');
  assert.is(new URL(page.url()).searchParams.get('at'), at);
  assert.is(await text('main h1'), 'SOL');
  await go('/market');
  await page.waitForSelector('tbody tr a');
  const href = await page.$eval('tbody tr a', (a) => a.getAttribute('href'));
  await go(href as string);
  await page.waitForSelector('.charts canvas', { timeout: 15_000 });
  await page.waitForFunction(() => {
    const canvas = document.querySelector('.charts canvas') as HTMLCanvasElement;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
    return painted > 500;
  }, { timeout: 20_000 });
  // Times are UTC on every page, charts included, wherever the browser is: the cursor on the
  // CVD chart reads its point's UTC time and the value in the page's USD format.
  await page.emulateTimezone('Asia/Tokyo');
  await page.reload({ waitUntil: 'networkidle2' });
  await page.waitForSelector('.charts .u-over', { timeout: 15_000 });
  const overs = await page.$$('.charts .u-over');
  const box = (await overs[1].boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  const legend = await page.$$eval('.charts .u-legend', (tables) => [...tables[1]
    .querySelectorAll('.u-value')].map((cell) => cell.textContent));
  const [when, cvd] = legend as string[];
  assert.match(when, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
  const atMs = Date.parse(`${when.slice(0, 10)}T${when.slice(11, 19)}Z`);
  assert.ok(atMs > Date.now() - 6 * 3_600_000 && atMs <= Date.now(), `${when} is a UTC time`);
  assert.match(cvd, /^-?\$\d+(\.\d+)?( [KMB])?$/);
  await page.emulateTimezone('UTC');
});

ui('a request without the CSRF token is refused; another account gets 404', async () => {
  const status = await page.evaluate(async () => (await fetch('/api/v1/account/keys', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status);
  assert.is(status, 403);
  const bo = new Browser(service.baseUrl);
  assert.is((await bo.signIn('bo@example.com', PASSWORD)).status, 200);
  assert.is((await bo.call('POST', `/api/v1/account/endpoints/${state.endpointId}/test`)).status,
    404);
  assert.is((await bo.call('GET', `/api/v1/account/endpoints/${state.endpointId}/deliveries`))
    .status, 404);
  assert.equal((await bo.call('GET', '/api/v1/account/endpoints')).body.endpoints, []);
});

ui('Signals: live rows; a track record not computed yet is a state, not an error', async () => {
  // The fixture puts no performance view: the API answers 503 not ready, as a just-started
  // service does.
  await go('/signals');
  await page.waitForSelector('tbody tr');
  await page.waitForSelector('main .status.empty');
  assert.match(await text('main .status.empty'), /being computed/);
  assert.is(await page.$('main .status.error'), null);
});

ui('Usage: a bar a day, under them the oldest day, the busiest count and today', async () => {
  await go('/usage');
  await page.waitForSelector('.days-axis');
  const cards = await page.$$eval('section.card', (sections) => sections.map((card) => ({
    axis: card.querySelector('.days-axis')?.textContent,
    bars: [...card.querySelectorAll('.days li')].map((li) => li.getAttribute('title')) })));
  assert.ok(cards.length >= 1);
  for (const { axis, bars } of cards) {
    // Newest first in the list (the strip is drawn right to left): "YYYY-MM-DD: n" each.
    const days = bars.map((t) => String(t).split(': ')[0]);
    const counts = bars.map((t) => Number(String(t).split(': ')[1]));
    assert.ok(days.length >= 2 && days[0] > days[days.length - 1], days.join(' '));
    assert.is(axis, `${days[days.length - 1].slice(5)}busiest ` +
      `${Math.max(...counts).toLocaleString('en-US')}today`);
  }
  assert.ok(cards.some(({ bars }) => Number(String(bars[0]).split(': ')[1]) > 0),
    'the session key counts today');
});

ui('every page: axe finds no serious or critical issue; screenshots light and dark', async () => {
  const pages = [['market', '/market'], ['pair', '/pair/BTC'], ['signals', '/signals'],
    ['funding', '/funding'], ['keys', '/keys'], ['alerts', '/alerts'], ['usage', '/usage']];
  for (const theme of ['dark', 'light']) {
    for (const [name, path] of pages) {
      await page.evaluate((t) => localStorage.setItem('orderflow.theme', t), theme);
      await go(path);
      await page.waitForSelector('main h1');
      assert.equal(await axeFindings(), [], `${name} (${theme})`);
      await page.screenshot({ path: join(SHOTS, `${name}-${theme}.png`), fullPage: true });
    }
  }
  await page.setViewport({ width: 390, height: 844 });
  await go('/market');
  await page.screenshot({ path: join(SHOTS, 'market-phone.png') });
  assert.equal(violations, []);
});

ui.run();
