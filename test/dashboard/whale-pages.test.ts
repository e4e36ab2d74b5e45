// The Whale pages in Debian's chromium against the real front (lmdb history, the real view
// builders' smart-money and wallet views): a Pro account sees each page above its plan as a
// gate (which plan, what is on it, the set-plan command, the greyed layout) and the navigation
// marks them; a Whale account sees the deep view's figures, labelled chart ticks, absorption
// marked on the price chart, whales and positions by category, the smart money and wallet
// pages; an unknown pair or wallet is one clear error and the page stops asking. axe in both
// themes; screenshots in test/.screenshots/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser as Chromium, Page } from 'puppeteer-core';
import { axeFindings, launchChromium } from './chromium.js';
import { startDashboardServer, type DashboardServer } from './dashboard-server.js';
import { putMarketFixture } from './market-fixture.js';
import { DEGEN, FUND, putWhaleFixture, UNTRACKED } from './whale-fixture.js';

declare const document: any, localStorage: any;

const whale = suite('whale pages in chromium');
const SHOTS = new URL('../.screenshots/', import.meta.url).pathname;
const PASSWORD = 'correct horse battery';
let service: DashboardServer;
let chromium: Chromium;
let pro: Page;
let rich: Page;

async function signedIn(email: string): Promise<Page> {
  const context = await chromium.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(`${service.baseUrl}/`, { waitUntil: 'networkidle2' });
  await page.waitForSelector('#email');
  await page.type('#email', email);
  await page.type('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForSelector('header.top nav', { timeout: 20_000 });
  return page;
}

async function visit(page: Page, path: string, theme = 'dark'): Promise<void> {
  await page.evaluate((t) => localStorage.setItem('orderflow.theme', t), theme);
  await page.goto(service.baseUrl + path, { waitUntil: 'networkidle2' });
}

const text = (page: Page, selector: string) =>
  page.$eval(selector, (el: any) => (el.textContent as string).replace(/\s+/g, ' ').trim());
const texts = (page: Page, selector: string) => page.$$eval(selector,
  (els: any[]) => els.map((el) => (el.textContent as string).replace(/\s+/g, ' ').trim()));

whale.before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  service = await startDashboardServer({ trackRecord: true });
  const nowMs = Date.now();
  putMarketFixture(service.snapshots, nowMs);
  await putWhaleFixture(service.snapshots, service.store, nowMs);
  await service.createAccount('pro@example.com', PASSWORD, 'Pro');
  await service.createAccount('whale@example.com', PASSWORD, 'Whale');
  chromium = await launchChromium();
  pro = await signedIn('pro@example.com');
  rich = await signedIn('whale@example.com');
});

whale.after(async () => {
  await chromium?.close();
  await service?.close();
});

whale('Pro: the navigation marks the Whale pages, and not what Pro reaches', async () => {
  await visit(pro, '/market');
  await pro.waitForSelector('nav .plan-badge');
  const marked = await pro.$$eval('nav[aria-label="Main"] a', (links: any[]) => links
    .filter((a) => a.querySelector('.plan-badge')).map((a) => a.getAttribute('href')));
  assert.equal(marked, ['/wallets', '/funding', '/liquidations']);
  assert.equal(await texts(pro, 'nav .plan-badge'), ['(needs Whale)', '(needs Whale)',
    '(needs Whale)']);
});

for (const [path, title, blocks] of [
  ['/pair/BTC/deep', 'BTC deep view', 4], ['/wallets', 'Wallets', 1],
  [`/wallets/${FUND}`, 'Wallet', 2], ['/funding', 'Funding arb', 1],
] as const) {
  whale(`Pro on ${path}: the gate says the plan, what is there and the command`, async () => {
    await visit(pro, path);
    await pro.waitForSelector('[data-plan-gate]');
    assert.is(await text(pro, 'main h1'), title);
    assert.is(await text(pro, 'main .page-head .plan-badge'), 'Whale');
    const sentence = await text(pro, '[data-plan-gate]');
    assert.match(sentence, new RegExp(`^${title} is on the Whale \\(and API\\) plan \\(this ` +
      'account is on Pro\\) and shows [^.]+; an operator moves an account with orderflow users ' +
      'set-plan EMAIL Whale\\.$'));
    assert.is(await pro.$eval('figure.gate-layout', (el: any) => el.getAttribute('role')), 'img');
    assert.is((await pro.$$('figure.gate-layout > *')).length, blocks);
    // The gate asks the API nothing: no 403 sentence, no data table.
    assert.is(await pro.$('.status.error'), null);
    assert.is(await pro.$('main table'), null);
    for (const theme of ['dark', 'light']) {
      await visit(pro, path, theme);
      await pro.waitForSelector('[data-plan-gate]');
      assert.equal(await axeFindings(pro), [], `${path} ${theme}`);
    }
    if (path === '/pair/BTC/deep') {
      await pro.screenshot({ path: join(SHOTS, 'deep-view-gate-pro.png') });
    }
  });
}

whale('Pro reaches Smart money: totals by category, positions, category filter', async () => {
  await visit(pro, '/smart-money');
  await pro.waitForSelector('.by-category tbody tr');
  assert.equal(await pro.$$eval('.by-category tbody tr', (rows: any[]) =>
    rows.map((r) => r.getAttribute('data-category'))), ['fund', 'degen']);
  // Fund: BTC 60 x 63,100 + 68,900 long; ETH 900 x 3,205.5 - 22,725 short.
  assert.equal(await texts(pro, '.by-category tr[data-category="fund"] td'),
    ['$3.85 M', '$2.86 M', '$992.67 K']);
  assert.is((await pro.$$('table:has(caption) tbody tr')).length, 4);
  await pro.select('#sm-category', 'degen');
  await pro.waitForFunction(() =>
    document.querySelectorAll('.by-category tbody tr').length === 1);
  assert.equal(await texts(pro, '.by-category tr[data-category="degen"] td'),
    ['$743.65 K', '$610.38 K', '$133.28 K']);
  await pro.screenshot({ path: join(SHOTS, 'smart-money-pro.png') });
  assert.equal(await pro.$$eval('table:has(caption) tbody tr td:first-child a',
    (links: any[]) => links.map((a) => a.getAttribute('href'))), [`/wallets/${DEGEN}`,
    `/wallets/${DEGEN}`]);
  assert.equal(await axeFindings(pro), []);
});

whale('Whale deep view: figures, ticked charts, absorption marked, whales, wallets', async () => {
  await visit(rich, '/pair/BTC');
  await rich.waitForSelector('main a[href="/pair/BTC/deep"]');
  await rich.click('main a[href="/pair/BTC/deep"]');
  await rich.waitForSelector('.deep-figures');
  assert.is(await rich.$('[data-plan-gate]'), null);
  assert.is(await rich.$('nav .plan-badge'), null, 'a Whale account reaches every page');
  const figures = await rich.$$eval('.deep-figures div', (divs: any[]) => Object.fromEntries(
    divs.map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent
      .replace(/\s+/g, ' ').trim()])));
  assert.equal(figures, { 'Price': '64,250.5', 'OBI': '0.214', 'OFI (10 s, base)': '-12.75',
    "Kyle's λ (bps/$1M)": '2.731', 'VPIN': '0.412 elevated', 'Regime': 'trending',
    'Score': '62 LONG', 'CVD (UTC day)': '$2.40 M' });
  // Every chart: the recorded four hours (or the 5-minute CVD), several labelled ticks each way.
  await rich.waitForFunction(() => document.querySelectorAll('[data-chart] svg').length === 6);
  for (const id of ['price', 'obi', 'ofi', 'kyle', 'vpin', 'cvd']) {
    const ticks = await rich.$$eval(`[data-chart="${id}"] g.tick text`,
      (els: any[]) => els.map((e) => e.textContent));
    const times = await rich.$$eval(`[data-chart="${id}"] text.tick`,
      (els: any[]) => els.map((e) => e.textContent));
    assert.ok(ticks.length >= 3, `${id} y ticks ${ticks}`);
    assert.is(new Set(ticks).size, ticks.length, `${id} distinct y labels ${ticks}`);
    assert.ok(times.length >= 3 && times.every((t: string) => /^\d\d:\d\d$/.test(t)),
      `${id} time ticks ${times}`);
  }
  assert.match(await rich.$eval('[data-chart="obi"] svg', (el: any) =>
    el.getAttribute('aria-label')), /^OBI \(-1 to 1\): 2\d\d points from/);
  assert.ok(await rich.$('[data-chart="obi"] line.zero'), 'OBI draws its zero line');
  assert.equal(await rich.$$eval('[data-chart="price"] [data-marker]',
    (els: any[]) => els.map((e) => e.getAttribute('data-marker'))), ['up', 'down']);
  assert.equal(await rich.$$eval('.by-category tbody tr', (rows: any[]) =>
    rows.map((r) => r.getAttribute('data-category'))), ['fund', 'degen']);
  assert.equal(await texts(rich, '.by-category tfoot td'), ['', '', '$3.24 M']);
  const whales = await texts(rich, 'table:has(caption) tbody tr');
  assert.ok(whales.some((row) => row.includes('$3.20 M')), whales.join('|'));
  assert.match(await text(rich, '.page-head .hint'),
    new RegExp('^Refreshes every 30 s \\(the deep view allows 10 requests a minute per key\\); ' +
      'next at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\.$'));
  for (const theme of ['light', 'dark']) {
    await visit(rich, '/pair/BTC/deep', theme);
    await rich.waitForFunction(() => document.querySelectorAll('[data-chart] svg').length === 6);
    assert.equal(await axeFindings(rich), [], theme);
    await rich.screenshot({ path: join(SHOTS, `deep-view-${theme}.png`), fullPage: true });
  }
  await rich.setViewport({ width: 390, height: 844 });
  await visit(rich, '/pair/BTC/deep');
  await rich.waitForFunction(() => document.querySelectorAll('[data-chart] svg').length === 6);
  assert.equal(await axeFindings(rich), [], 'phone');
  await rich.screenshot({ path: join(SHOTS, 'deep-view-phone.png'), fullPage: true });
  await rich.setViewport({ width: 1280, height: 900 });
});

whale('Whale: the deep view links a whale to its wallet: positions, leverage, PnL', async () => {
  await visit(rich, '/pair/BTC/deep');
  await rich.waitForSelector(`a[href="/wallets/${FUND}"]`);
  await rich.click(`a[href="/wallets/${FUND}"]`);
  await rich.waitForSelector('.wallet-figures');
  assert.match(await text(rich, 'main h1'), new RegExp(`^Alameda-ish Fund ${FUND}$`));
  const figures = await texts(rich, '.wallet-figures dd');
  // Open notional 3,854,900 + 2,862,225; unrealized 68,900 + 22,725.
  assert.equal(figures.slice(0, 7), ['Fund', '$24.50 M', '$6.72 M', '0.3×', '5.0×', '$91.63 K',
    '$185.00 K']);
  const rows = await rich.$$eval('tbody tr', (trs: any[]) => trs.map((tr) =>
    [...tr.children].map((td: any) => td.textContent.trim())));
  assert.equal(rows[0], ['BTC', 'long', '60.0000', '$3.85 M', '5.0× cross', '63,100.0',
    '41,250.5', '$770.98 K', '$68.90 K']);
  assert.equal(rows[1].slice(0, 2), ['ETH', 'short']);
  for (const theme of ['dark', 'light']) {
    await visit(rich, `/wallets/${FUND}`, theme);
    await rich.waitForSelector('.wallet-figures');
    assert.equal(await axeFindings(rich), [], theme);
  }
  await rich.screenshot({ path: join(SHOTS, 'wallet-detail.png'), fullPage: true });
});

whale('Whale: the wallets list, each wallet linked, PnL signed', async () => {
  await visit(rich, '/wallets');
  await rich.waitForSelector('tbody tr');
  const rows = await rich.$$eval('tbody tr', (trs: any[]) => trs.map((tr) =>
    [...tr.children].map((td: any) => td.textContent.trim())));
  assert.equal(rows.map((r: string[]) => r[0]), ['Alameda-ish Fund', DEGEN.slice(0, 6) + '…' +
    DEGEN.slice(-4)]);
  assert.equal(rows[1].slice(1), ['Degen', '$410.00 K', '$1.35 M', '3.3×', '2', '-$1.18 K',
    '-$42.50 K']);
  assert.is(await rich.$eval('tbody tr:nth-child(2) td:last-child span',
    (el: any) => el.className), 'down');
  for (const theme of ['dark', 'light']) {
    await visit(rich, '/wallets', theme);
    await rich.waitForSelector('tbody tr');
    assert.equal(await axeFindings(rich), [], theme);
  }
  await rich.screenshot({ path: join(SHOTS, 'wallets.png') });
});

whale('an unknown pair is one clear error, asked once; wallets: bad and untracked', async () => {
  const asked: string[] = [];
  rich.on('request', (r) => { if (r.url().includes('/api/v1/deep-view/')) asked.push(r.url()); });
  await visit(rich, '/pair/NOPE/deep');
  await rich.waitForSelector('main .status.error');
  assert.is(await text(rich, 'main .status.error'),
    'symbol must be a listed pair (was "NOPE")');
  assert.is(await rich.$('.deep-figures'), null);
  assert.is(await rich.$('.page-head .hint'), null, 'no next refresh once the answer is final');
  assert.equal(asked, [`${service.baseUrl}/api/v1/deep-view/NOPE`]);
  assert.equal(await axeFindings(rich), []);
  await visit(rich, '/wallets/0xZZ');
  await rich.waitForSelector('main .status.error');
  assert.is(await text(rich, 'main .status.error'),
    'address must be 0x followed by 40 hex characters (was "0xZZ")');
  await visit(rich, `/wallets/${UNTRACKED}`);
  await rich.waitForSelector('main .status.error');
  assert.is(await text(rich, 'main .status.error'),
    `address must be a tracked wallet (${UNTRACKED} was not one)`);
});

whale.run();
