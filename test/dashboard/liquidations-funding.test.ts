// The liquidation map and funding arb pages in a real browser (Debian's chromium) against the
// real front: the ladder shows long and short notional on their sides of the mark with exact
// figures on focus and in the table, the picker, the unknown and untracked symbol states, the
// Pro account's gate; funding arb's filters hide rows and say how many, its open-interest and
// volume columns sort. Axe in both themes; screenshots in test/.screenshots/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser as Chromium, BrowserContext, Page } from 'puppeteer-core';
import { axeFindings, launchChromium } from './chromium.js';
import { startDashboardServer, type DashboardServer } from './dashboard-server.js';
import { putMarketFixture } from './market-fixture.js';
import { ARB_ROWS, BTC_MARK, LONG_LEVELS, SHORT_LEVELS, putLiquidationFixture } from
  './liquidation-fixture.js';

/** The page's globals, as seen from code that runs inside it (this file has no DOM types). */
declare const document: any, localStorage: any, location: any;

const pages = suite('liquidation map and funding arb pages');
const SHOTS = new URL('../.screenshots/', import.meta.url).pathname;
const PASSWORD = 'correct horse battery';
let service: DashboardServer;
let chromium: Chromium;
let page: Page;
let proContext: BrowserContext;
let pro: Page;

async function go(on: Page, path: string): Promise<void> {
  await on.goto(service.baseUrl + path, { waitUntil: 'networkidle2' });
}

async function signIn(on: Page, email: string): Promise<void> {
  await go(on, '/');
  await on.waitForSelector('#email');
  await on.type('#email', email);
  await on.type('#password', PASSWORD);
  await on.click('button[type=submit]');
  await on.waitForSelector('header.top nav', { timeout: 20_000 });
}

async function setTheme(on: Page, theme: string): Promise<void> {
  await on.evaluate((t: string) => localStorage.setItem('orderflow.theme', t), theme);
}

pages.before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  service = await startDashboardServer();
  await service.createAccount('whale@example.com', PASSWORD, 'Whale');
  await service.createAccount('pro@example.com', PASSWORD, 'Pro');
  putMarketFixture(service.snapshots, Date.now());
  putLiquidationFixture(service.snapshots, Date.now());
  chromium = await launchChromium();
  page = await chromium.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await signIn(page, 'whale@example.com');
  proContext = await chromium.createBrowserContext();
  pro = await proContext.newPage();
  await pro.setViewport({ width: 1280, height: 900 });
  await signIn(pro, 'pro@example.com');
});

pages.after(async () => {
  await chromium?.close();
  await service?.close();
});

const shownSymbols = (on: Page) => on.$$eval('.table-wrap tbody tr td:first-child',
  (cells: any[]) => cells.map((c) => c.textContent as string));
const hiddenCount = (on: Page) => on.$eval('.filter-count', (el: any) => el.textContent as string);

pages('funding arb: open interest and volume columns; under $1 M hidden, and counted', async () => {
  await go(page, '/funding');
  await page.waitForSelector('.table-wrap tbody tr');
  const heads = await page.$$eval('thead th', (th: any[]) => th.map((t) => t.textContent));
  assert.ok(heads.some((h) => /^Open interest/.test(h)), heads.join('|'));
  assert.ok(heads.some((h) => /^Volume 24h/.test(h)), heads.join('|'));
  const big = ARB_ROWS.filter((r) => r[2] !== null && r[2] >= 1e6).map((r) => r[0]);
  assert.equal((await shownSymbols(page)).sort(), [...big].sort());
  assert.match(await hiddenCount(page), `${big.length} of ${ARB_ROWS.length} pairs shown`);
  assert.match(await hiddenCount(page), `${ARB_ROWS.length - big.length} hidden by filter`);
  const btc = await page.$$eval('tbody tr', (rows: any[]) => rows.map((r) =>
    [...r.querySelectorAll('td')].map((td: any) => td.textContent)).find((c) => c[0] === 'BTC'));
  assert.equal(btc!.slice(3, 6), ['+9.60 %', '$2.60 B', '$2.10 B']);
  for (const theme of ['dark', 'light']) {
    await setTheme(page, theme);
    await go(page, '/funding');
    await page.waitForSelector('.table-wrap tbody tr');
    assert.equal(await axeFindings(page), [], `funding (${theme})`);
    await page.screenshot({ path: join(SHOTS, `funding-filtered-${theme}.png`), fullPage: true });
  }
});

pages('funding arb: each filter hides rows; sorting by open interest orders them', async () => {
  await go(page, '/funding');
  await page.waitForSelector('.table-wrap tbody tr');
  await page.select('#arb-oi', '0');
  assert.is((await shownSymbols(page)).length, ARB_ROWS.length, 'no floor: every pair');
  assert.not.match(await hiddenCount(page), 'hidden');
  await page.select('#arb-volume', '10000000');
  assert.equal((await shownSymbols(page)).sort(), ['BTC', 'DOGE', 'ETH', 'SOL']);
  await page.select('#arb-volume', '0');
  await page.type('#arb-spread', '20');
  assert.equal((await shownSymbols(page)).sort(), ['BLZ', 'MEW', 'NEWCO', 'SOL']);
  await page.click('.filters input[type=checkbox]');
  assert.equal(await shownSymbols(page), ['SOL'], 'tracked only');
  await page.click('.filters input[type=checkbox]');
  await page.$eval('#arb-spread', (el: any) => { el.value = ''; });
  await page.type('#arb-spread', '0');
  await page.type('#arb-search', 'ew');
  assert.equal((await shownSymbols(page)).sort(), ['MEW', 'NEWCO']);
  await page.$eval('#arb-search', (el: any) => { el.value = ''; });
  await page.type('#arb-search', 'zzz');
  await page.waitForSelector('.status.empty');
  assert.match(await page.$eval('.status.empty', (el: any) => el.textContent),
    'No pair passes the filter');
  await go(page, '/funding');
  await page.waitForSelector('.table-wrap tbody tr');
  await page.click('button[data-sort=openInterest]');
  assert.equal(await shownSymbols(page), ['BTC', 'ETH', 'SOL', 'DOGE', 'WIF'], 'largest first');
  await page.click('.filter-count button');
  assert.is((await shownSymbols(page)).length, ARB_ROWS.length, '"Show all" lifts the filter');
});

/** Long and short bars of the ladder: band index, price range and notional. */
const ladderBars = (on: Page) => on.$$eval('.rung', (rungs: any[]) => rungs.flatMap((r) =>
  ['long', 'short'].flatMap((side) => {
    const bar = r.querySelector(`.${side} .bar`);
    return bar ? [{ side, band: Number(r.dataset.band),
      notional: Number(bar.dataset.notional) }] : [];
  })));

pages('liquidation map: longs below the mark, shorts above, each level\'s notional', async () => {
  await go(page, '/liquidations/BTC');
  await page.waitForSelector('.ladder .rung');
  const bars = await ladderBars(page);
  const sideOf = (side: string) => bars.filter((b) => b.side === side)
    .map((b) => b.notional).sort((a, b) => a - b);
  const expected = (levels: readonly (readonly [number, number])[]) =>
    levels.map(([, size]) => size * BTC_MARK).sort((a, b) => a - b);
  assert.equal(sideOf('long'), expected(LONG_LEVELS));
  assert.equal(sideOf('short'), expected(SHORT_LEVELS));
  // 80 bands of 0.5 %: band 40 starts at the mark; longs liquidate under it, shorts over it.
  assert.ok(bars.every((b) => (b.side === 'long' ? b.band < 40 : b.band >= 40)), 'sides');
  assert.match(await page.$eval('.mark-tag', (el: any) => el.textContent), 'mark 64,000.0');
  const tableLongs = await page.$$eval('.levels tbody td.long', (td: any[]) =>
    td.map((c) => c.textContent).filter((t) => t !== '—'));
  assert.equal(tableLongs.sort(), ['$896,000', '$2,624,000', '$608,000'].sort());
  assert.ok((await page.$$eval('.levels tbody td.short', (td: any[]) => td.map((c) =>
    c.textContent))).includes('$1,984,000'), 'the table has the shorts\' exact figures');
  // Keyboard: focus the ladder, it reads out the busiest band; an arrow steps one band.
  await page.focus('.ladder');
  const busiest = await page.$eval('#ladder-readout', (el: any) => el.textContent as string);
  assert.match(busiest, 'longs $2,624,000');
  await page.keyboard.press('ArrowDown');
  const next = await page.$eval('#ladder-readout', (el: any) => el.textContent as string);
  assert.ok(next !== busiest && /longs \$0\.00, shorts \$0\.00/.test(next), next);
  // Hover: the band under the pointer.
  const shortBand = bars.find((b) => b.notional === 22 * BTC_MARK)!.band;
  await page.hover(`.rung[data-band="${shortBand}"]`);
  assert.match(await page.$eval('#ladder-readout', (el: any) => el.textContent),
    'shorts $1,408,000');
  for (const theme of ['dark', 'light']) {
    await setTheme(page, theme);
    await go(page, '/liquidations/BTC');
    await page.waitForSelector('.ladder .rung');
    await page.hover(`.rung[data-band="${shortBand}"]`);
    assert.equal(await axeFindings(page), [], `liquidations (${theme})`);
    await page.screenshot({ path: join(SHOTS, `liquidations-${theme}.png`), fullPage: true });
  }
  // A phone: the ladder and the table stack, and the page does not scroll sideways.
  await page.setViewport({ width: 390, height: 844 });
  await go(page, '/liquidations/BTC');
  await page.waitForSelector('.ladder .rung');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390),
    'no sideways scroll at 390 px');
  await page.screenshot({ path: join(SHOTS, 'liquidations-phone.png'), fullPage: true });
  await page.setViewport({ width: 1280, height: 900 });
});

pages('liquidation map: the nav entry, the picker, and the empty map', async () => {
  await go(page, '/market');
  await page.click('nav a[href="/liquidations"]');
  await page.waitForSelector('.ladder .rung');
  assert.is(await page.evaluate(() => location.pathname), '/liquidations/BTC',
    'the busiest tracked pair first');
  assert.is(await page.$eval('nav a[aria-current=page]', (a: any) => a.getAttribute('href')),
    '/liquidations');
  const options = await page.$$eval('#liq-symbol option', (o: any[]) => o.map((x) => x.value));
  assert.equal(options, ['BTC', 'ETH', 'SOL', 'DOGE']);
  await page.select('#liq-symbol', 'ETH');
  await page.waitForSelector('.status.empty');
  assert.is(await page.evaluate(() => location.pathname), '/liquidations/ETH');
  assert.match(await page.$eval('.status.empty', (el: any) => el.textContent),
    'No tracked wallet holds a position in ETH yet');
  assert.is(await page.$('.ladder'), null);
  assert.equal(await axeFindings(page), [], 'empty map');
  await page.screenshot({ path: join(SHOTS, 'liquidations-empty.png') });
});

pages('liquidation map: an unknown symbol and an untracked pair say so, once', async () => {
  const asked: string[] = [];
  const count = (request: any) => {
    if (request.url().includes('/api/v1/liquidation-map/')) asked.push(request.url());
  };
  page.on('request', count);
  await go(page, '/liquidations/NOPE');
  await page.waitForSelector('.status.error');
  assert.match(await page.$eval('.status.error', (el: any) => el.textContent),
    'NOPE is not a listed pair');
  assert.equal(await axeFindings(page), [], 'unknown symbol');
  await page.screenshot({ path: join(SHOTS, 'liquidations-unknown.png') });
  await go(page, '/liquidations/BLZ');
  await page.waitForSelector('.status.error');
  assert.match(await page.$eval('.status.error', (el: any) => el.textContent),
    'BLZ is listed but not one of the tracked pairs');
  page.off('request', count);
  assert.is(asked.filter((u) => u.endsWith('/NOPE')).length, 1, asked.join(' '));
});

pages('a Pro account: the gate says Whale shows the map, and asks for no map', async () => {
  const asked: string[] = [];
  pro.on('request', (request: any) => {
    if (request.url().includes('/api/v1/liquidation-map/')) asked.push(request.url());
  });
  await go(pro, '/liquidations/BTC');
  await pro.waitForSelector('[data-plan-gate]');
  const text = await pro.$eval('[data-plan-gate]', (el: any) => el.textContent as string);
  assert.match(text, 'Liquidation map is on the Whale (and API) plan');
  assert.match(text, 'orderflow users set-plan EMAIL Whale');
  assert.ok(await pro.$('.gate-ladder'), 'a picture of the empty ladder');
  assert.match(await pro.$eval('nav a[href="/liquidations"]', (a: any) => a.textContent),
    'Whale', 'the nav marks the page');
  for (const theme of ['dark', 'light']) {
    await setTheme(pro, theme);
    await go(pro, '/liquidations/BTC');
    await pro.waitForSelector('[data-plan-gate]');
    assert.equal(await axeFindings(pro), [], `gate (${theme})`);
    await pro.screenshot({ path: join(SHOTS, `liquidations-pro-${theme}.png`) });
  }
  assert.equal(asked, []);
});

pages.run();
